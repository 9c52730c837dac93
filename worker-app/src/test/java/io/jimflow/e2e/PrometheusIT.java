package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.monitoring.Promtool;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The shipped alert rules on a real Prometheus (Debian's) scraping a real worker: an execution that
 * fails fires {@code JimflowExecutionFailed} for its schedule.
 */
@ExtendWith({Promtool.Required.class, TemporalDevServerExtension.class})
class PrometheusIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static final String SCHEDULES =
      """
      scope: prometheus-it
      schedules:
        - id: doomed
          name: Doomed
          # 1 January only: it runs when the test starts it, never by itself.
          trigger: {cron: "0 3 1 1 *"}
          steps:
            - index: 0
              name: Always Fails
              executable: {path: fail.sh, args: ["4", "target unreachable"]}
              retry: {maximumAttempts: 1}
      """;

  private String namespace;

  @Test
  void aFailedExecutionFiresItsAlertOnARealPrometheus(E2eEnvironment env) throws Exception {
    namespace = env.newNamespace("prometheus");
    Path dir = env.newDirectory("prometheus");
    WorkerProcess worker =
        env.startWorker(
            "prometheus",
            E2eEnvironment.withOwnStore(
                Map.of(
                    "TEMPORAL_NAMESPACE",
                    namespace,
                    "JIMFLOW_DATA_PLANE_BASE_DIRECTORY",
                    dir.toString(),
                    "JIMFLOW_METRICS_REFRESH_INTERVAL",
                    "1s")));
    Path schedules = Files.writeString(dir.resolve("schedules.yaml"), SCHEDULES);
    CliRun apply = cli(env, "schedules", "apply", "-f", schedules.toString());
    assertThat(apply.exit()).as(apply.out() + apply.err()).isZero();

    int port = ReservedPorts.reserve();
    Path config =
        Files.writeString(
            dir.resolve("prometheus.yml"),
            """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            rule_files:
              - %s
            scrape_configs:
              - job_name: jimflow-worker
                metrics_path: /actuator/prometheus
                static_configs:
                  - targets: ["127.0.0.1:%d"]
            """
                .formatted(Promtool.rules(), worker.httpPort()));
    Path log = dir.resolve("prometheus.log");
    Process prometheus =
        new ProcessBuilder(
                Promtool.PROMETHEUS.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("tsdb"),
                "--web.listen-address=127.0.0.1:" + port)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    String api = "http://127.0.0.1:" + port + "/api/v1/";
    try {
      // Prometheus has the schedule's failure counter at 0, so that the failure is an increase.
      Await.until(
          () ->
              result(api, "jimflow_executions_ended_total{schedule=\"doomed\",status=\"Failed\"}")
                      .size()
                  > 0,
          "Prometheus scrapes the worker's counters of the schedule (log " + log + ")",
          Duration.ofSeconds(90),
          Duration.ofMillis(500));
      assertThat(firing(api)).as("nothing fires before the failure").doesNotContain("doomed");

      CliRun run = cli(env, "start", "doomed", "-f", schedules.toString(), "--wait");
      assertThat(run.out()).as(run.out() + run.err()).contains("ended Failed");

      Await.until(
          () -> firing(api).contains("JimflowExecutionFailed/doomed"),
          "JimflowExecutionFailed fires for schedule doomed (log " + log + ")",
          Duration.ofSeconds(90),
          Duration.ofMillis(500));
      assertThat(firing(api))
          .as("its alert only")
          .doesNotContain("JimflowExecutionEndedWithErrors/doomed");
    } finally {
      prometheus.destroy();
      if (!prometheus.waitFor(30, TimeUnit.SECONDS)) {
        prometheus.destroyForcibly();
      }
    }
  }

  /** The alerts firing now, as {@code <alertname>/<schedule>}. */
  private static List<String> firing(String api) {
    JsonNode alerts = get(api + "alerts").path("data").path("alerts");
    List<String> firing = new ArrayList<>();
    alerts.forEach(
        a -> {
          if ("firing".equals(a.get("state").asText())) {
            JsonNode labels = a.get("labels");
            firing.add(
                labels.get("alertname").asText()
                    + "/"
                    + (labels.has("schedule") ? labels.get("schedule").asText() : ""));
          }
        });
    return firing;
  }

  private static JsonNode result(String api, String query) {
    return get(api + "query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8))
        .path("data")
        .path("result");
  }

  private static JsonNode get(String url) {
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
              HttpResponse.BodyHandlers.ofString());
      return JSON.readTree(response.body());
    } catch (java.io.IOException e) {
      // Not listening yet: nothing to see.
      return JSON.createObjectNode();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private CliRun cli(E2eEnvironment env, String... args) {
    return CliRun.of(env, namespace, args);
  }
}
