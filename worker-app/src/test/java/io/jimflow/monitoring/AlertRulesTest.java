package io.jimflow.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped alert rules are valid Prometheus rules and fire on exactly the series their promtool
 * tests ({@code config/prometheus/jimflow-alerts.test.yml}) say.
 */
@ExtendWith(Promtool.Required.class)
class AlertRulesTest {

  @Test
  void theShippedRulesPassPromtoolsCheck() throws Exception {
    Promtool.Run check =
        Promtool.run(Promtool.rules().getParent(), "check", "rules", "jimflow-alerts.yml");

    assertThat(check.exit()).as(check.output()).isZero();
    assertThat(check.output()).contains("SUCCESS: 8 rules found");
  }

  @Test
  void theShippedRulesPassTheirPromtoolTests() throws Exception {
    Promtool.Run test =
        Promtool.run(Promtool.rules().getParent(), "test", "rules", "jimflow-alerts.test.yml");

    assertThat(test.exit()).as(test.output()).isZero();
    assertThat(test.output()).contains("SUCCESS");
  }

  @Test
  void theComposeProfilesPrometheusLoadsTheShippedRulesAndIsPublishedOnThisHostOnly(
      @TempDir Path dir) throws Exception {
    Path home = Promtool.rules().getParent().getParent().getParent();
    String config = Files.readString(home.resolve("docker/prometheus/prometheus.yml"));
    // The file as the container sees it, with the rules where the compose file mounts them.
    Files.copy(Promtool.rules(), dir.resolve("jimflow-alerts.yml"));
    Files.writeString(
        dir.resolve("prometheus.yml"),
        config.replace("/etc/prometheus/jimflow-alerts.yml", "jimflow-alerts.yml"));

    Promtool.Run check = Promtool.run(dir, "check", "config", "prometheus.yml");

    assertThat(check.exit()).as(check.output()).isZero();
    assertThat(check.output()).contains("SUCCESS: 8 rules found");
    assertThat(Files.readString(home.resolve("docker-compose.yml")))
        .contains("profiles: [monitoring]")
        .contains(
            "./config/prometheus/jimflow-alerts.yml:/etc/prometheus/jimflow-alerts.yml:ro",
            "./docker/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro",
            "\"${JIMFLOW_BIND_ADDRESS:-127.0.0.1}:9090:9090\"");
  }

  @Test
  void promtoolTestsFailWhenARuleFiresOnTheWrongSeries(@TempDir Path dir) throws Exception {
    // The tests can fail: the same tests against rules whose failure alert watches Complete.
    Files.writeString(
        dir.resolve("jimflow-alerts.yml"),
        Files.readString(Promtool.rules())
            .replace(
                "jimflow_executions_ended_total{status=\"Failed\"}",
                "jimflow_executions_ended_total{status=\"Complete\"}"));
    Files.copy(
        Promtool.rules().resolveSibling("jimflow-alerts.test.yml"),
        dir.resolve("jimflow-alerts.test.yml"));

    Promtool.Run test = Promtool.run(dir, "test", "rules", "jimflow-alerts.test.yml");

    assertThat(test.exit()).as(test.output()).isNotZero();
    assertThat(test.output()).contains("alertname: JimflowExecutionFailed");
  }
}
