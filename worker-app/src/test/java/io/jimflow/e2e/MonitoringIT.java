package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.cli.JimflowCli;
import io.jimflow.exampledata.ExamplePeople;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * What an operator monitors: after real runs of the shipped schedules, the worker's Prometheus
 * endpoint holds jimflow's execution, step, object, pending-export, lock-wait, sweep and work-item
 * series with the runs' values.
 */
@ExtendWith(TemporalDevServerExtension.class)
class MonitoringIT {

  private String namespace;

  @Test
  void thePrometheusEndpointCountsTheRunsOfTheShippedSchedules(E2eEnvironment env)
      throws Exception {
    // Its own namespace, worker and store: the metrics it reads count this test's runs only.
    namespace = env.newNamespace("monitoring");
    Path dir = env.newDirectory("monitoring");
    WorkerProcess worker =
        env.startWorker(
            "monitoring",
            Map.of(
                "TEMPORAL_NAMESPACE",
                namespace,
                "JIMFLOW_STORE_URL",
                "jdbc:h2:file:" + dir.resolve("store/jimflow") + ";AUTO_SERVER=TRUE",
                "JIMFLOW_DATA_PLANE_BASE_DIRECTORY",
                dir.toString()));
    Path hr = dir.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer writer = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(3L).write(30, writer, n -> {});
      writer.write("E-BROKEN,too,few,columns\n");
    }
    String schedules = env.projectHome().resolve("config/schedules.yaml").toString();

    Cli sync = cli(env, "start", "nightly-hr-sync", "-f", schedules, "--wait");
    assertThat(sync.out())
        .as(sync.out() + sync.err())
        .contains("ended Complete: All 6 step(s) complete");
    Cli script = cli(env, "start", "script-demo", "-f", schedules, "--wait");
    assertThat(script.out()).as(script.out() + script.err()).contains("ended CompleteWithError");
    Cli housekeeping = cli(env, "housekeeping", "run");
    assertThat(housekeeping.exit()).as(housekeeping.out() + housekeeping.err()).isZero();

    PrometheusText metrics = PrometheusText.parse(worker.get("/actuator/prometheus"));

    assertThat(
            metrics.value(
                "jimflow_executions_started_total",
                "schedule",
                "nightly-hr-sync",
                "trigger",
                "Manual"))
        .isEqualTo(1);
    assertThat(
            metrics.value(
                "jimflow_executions_ended_total",
                "schedule",
                "nightly-hr-sync",
                "trigger",
                "Manual",
                "status",
                "Complete"))
        .isEqualTo(1);
    assertThat(
            metrics.value(
                "jimflow_executions_ended_total",
                "schedule",
                "script-demo",
                "status",
                "CompleteWithError"))
        .isEqualTo(1);
    assertThat(
            metrics.value(
                "jimflow_schedule_last_success_timestamp_seconds", "schedule", "nightly-hr-sync"))
        .isGreaterThan(System.currentTimeMillis() / 1000.0 - 600);
    assertThat(
            metrics.find(
                "jimflow_schedule_last_success_timestamp_seconds", "schedule", "script-demo"))
        .as("it never succeeded")
        .isEmpty();
    // Steps: Prepare, Count and Wrap Up complete, Flaky Check fails; six run-profile steps.
    assertThat(
            metrics.value(
                "jimflow_step_duration_seconds_count",
                "schedule",
                "script-demo",
                "step_type",
                "Executable",
                "status",
                "Complete"))
        .isEqualTo(3);
    assertThat(
            metrics.value(
                "jimflow_step_duration_seconds_count",
                "schedule",
                "script-demo",
                "status",
                "FailedWithError"))
        .isEqualTo(1);
    assertThat(
            metrics
                .find("jimflow_step_duration_seconds_count", "schedule", "nightly-hr-sync")
                .stream()
                .mapToDouble(PrometheusText.Sample::value)
                .sum())
        .isEqualTo(6);
    // 30 people added and the broken row in error; everyone exported to the directory.
    assertThat(objects(metrics, "added", "HR System", "FullImport")).isEqualTo(30);
    assertThat(objects(metrics, "errors", "HR System", "FullImport")).isEqualTo(1);
    assertThat(objects(metrics, "processed", "HR System", "FullImport")).isEqualTo(31);
    assertThat(objects(metrics, "processed", "HR System", "FullSynchronisation")).isEqualTo(30);
    assertThat(objects(metrics, "deleted", "HR System", "FullImport")).isZero();
    assertThat(objects(metrics, "updated", "HR System", "FullImport")).isZero();
    assertThat(metrics.value("jimflow_pending_exports", "system", "Directory")).isZero();
    assertThat(metrics.value("jimflow_pending_exports", "system", "Badge System")).isZero();
    // Each run-profile step waited for its connected system once (the wait itself may be 0).
    assertThat(
            metrics.value(
                "jimflow_resource_lock_wait_seconds_count",
                "schedule",
                "nightly-hr-sync",
                "system",
                "HR System"))
        .isEqualTo(2);
    assertThat(
            metrics.value(
                "jimflow_resource_lock_wait_seconds_count",
                "schedule",
                "nightly-hr-sync",
                "system",
                "Directory"))
        .isEqualTo(2);
    assertThat(metrics.value("jimflow_stranded_records_swept_total", "kind", "execution_record"))
        .isZero();
    assertThat(metrics.value("jimflow_work_items", "state", "Running")).isZero();
    assertThat(metrics.find("jimflow_executions_started_total"))
        .as("no execution id or person is ever a label")
        .allSatisfy(s -> assertThat(s.labels().keySet()).isSubsetOf("schedule", "trigger"));
  }

  private static double objects(PrometheusText metrics, String what, String system, String run) {
    return metrics.value("jimflow_objects_" + what + "_total", "system", system, "run_type", run);
  }

  private Cli cli(E2eEnvironment env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = JimflowCli.commandLine();
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    List<String> full = new ArrayList<>(List.of(args));
    full.addAll(List.of("--address", env.target(), "--namespace", namespace));
    return new Cli(cli.execute(full.toArray(String[]::new)), out.toString(), err.toString());
  }

  private record Cli(int exit, String out, String err) {}
}
