package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.exampledata.ExamplePeople;
import io.temporal.client.WorkflowNotFoundException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What an operator monitors: after real runs of the shipped schedules, the webhook has heard of the
 * one that ended with errors, and the worker's Prometheus endpoint holds jimflow's execution, step,
 * object, pending-export, lock-wait, sweep and work-item series with the runs' values.
 */
@ExtendWith(TemporalDevServerExtension.class)
class MonitoringIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  private String namespace;

  @Test
  void thePrometheusEndpointCountsTheRunsOfTheShippedSchedules(E2eEnvironment env)
      throws Exception {
    // Its own namespace, worker and store: the metrics it reads count this test's runs only.
    namespace = env.newNamespace("monitoring");
    Path dir = env.newDirectory("monitoring");
    try (WebhookReceiver receiver = new WebhookReceiver()) {
      runAndMonitor(env, dir, receiver.received(), receiver.url());
    }
  }

  private void runAndMonitor(E2eEnvironment env, Path dir, List<JsonNode> received, String hook)
      throws Exception {
    WorkerProcess worker =
        env.startWorker(
            "monitoring",
            E2eEnvironment.withOwnStore(
                Map.of(
                    "TEMPORAL_NAMESPACE",
                    namespace,
                    "JIMFLOW_DATA_PLANE_BASE_DIRECTORY",
                    dir.toString(),
                    "JIMFLOW_METRICS_REFRESH_INTERVAL",
                    "2s",
                    "JIMFLOW_NOTIFICATIONS_WEBHOOK_URL",
                    hook)));
    Path hr = dir.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer writer = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(3L).write(30, writer, n -> {});
    }
    String schedules = env.projectHome().resolve("config/schedules.yaml").toString();

    CliRun sync = cli(env, "start", "nightly-hr-sync", "-f", schedules, "--wait");
    assertThat(sync.out())
        .as(sync.out() + sync.err())
        .contains("ended Complete: All 6 step(s) complete");
    CliRun script = cli(env, "start", "script-demo", "-f", schedules, "--wait");
    assertThat(script.out()).as(script.out() + script.err()).contains("ended CompleteWithError");
    // The script demo's end is posted once, naming the schedule, the outcome and the failed step.
    Await.until(
        () -> !received.isEmpty(),
        "a notification reaches the webhook",
        Duration.ofSeconds(60),
        Duration.ofMillis(200));
    assertThat(received).hasSize(1);
    JsonNode message = received.get(0);
    assertThat(message.get("text").asText())
        .contains("Script Demo", "script-demo", "CompleteWithError", "Flaky Check");
    assertThat(message.get("status").asText()).isEqualTo("CompleteWithError");
    assertThat(message.get("steps")).extracting(JsonNode::asText).containsExactly("Flaky Check");
    String syncId = sync.out().lines().findFirst().orElseThrow().strip();
    assertThatThrownBy(
            () -> env.client(namespace).newUntypedWorkflowStub(syncId + "/notify").describe())
        .as("the sync that completed notified nobody")
        .isInstanceOf(WorkflowNotFoundException.class);
    CliRun housekeeping = cli(env, "housekeeping", "run");
    assertThat(housekeeping.exit()).as(housekeeping.out() + housekeeping.err()).isZero();

    // A work item waiting to be woken: the work items gauge counts it in its state.
    CliRun item =
        cli(
            env,
            "items",
            "schedule",
            "--guid",
            java.util.UUID.randomUUID().toString(),
            "--kind",
            "line-count",
            "--suspended");
    assertThat(item.exit()).as(item.out() + item.err()).isZero();
    Await.until(
        () ->
            PrometheusText.parse(worker.get("/actuator/prometheus"))
                .find("jimflow_work_items", "state", "Suspended")
                .stream()
                .anyMatch(sample -> sample.value() == 1),
        "the work items gauge counts the suspended item",
        Duration.ofSeconds(60),
        Duration.ofMillis(500));

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
    // 30 people added, none in error (a row in error now ends the run CompleteWithError, which
    // the schedule's other assertions here do not want); everyone exported to the directory.
    assertThat(objects(metrics, "added", "HR System", "FullImport")).isEqualTo(30);
    assertThat(
            metrics
                .find(
                    "jimflow_objects_errors_total", "system", "HR System", "run_type", "FullImport")
                .stream()
                .mapToDouble(PrometheusText.Sample::value)
                .sum())
        .isZero();
    assertThat(objects(metrics, "processed", "HR System", "FullImport")).isEqualTo(30);
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

    theSchedulesListShowsTheLastExecutionWhateverStartedIt(env, worker, dir);
  }

  /**
   * {@code schedules list} after the runs above: each shipped schedule with its last execution
   * (started by hand, not by the schedule), how it ended, and its next run. The schedules are
   * re-timed to fire on 1 January only, so that none starts by itself during the test.
   */
  private void theSchedulesListShowsTheLastExecutionWhateverStartedIt(
      E2eEnvironment env, WorkerProcess worker, Path dir) throws Exception {
    String shipped = Files.readString(env.projectHome().resolve("config/schedules.yaml"));
    String quiet =
        shipped
            .replaceAll(
                "(?s)trigger:\\n      at:.*?timezone: Europe/London",
                "trigger: {cron: \"0 3 1 1 *\"}")
            .replaceAll(
                "trigger:\\n      every: \\{[^}]*}\\n      timezone: Europe/London",
                "trigger: {cron: \"0 3 1 1 *\"}");
    assertThat(quiet).doesNotContain("Europe/London");
    Path file = Files.writeString(dir.resolve("schedules.yaml"), quiet);
    CliRun apply = cli(env, "schedules", "apply", "-f", file.toString());
    assertThat(apply.exit()).as(apply.out() + apply.err()).isZero();

    CliRun list = cli(env, "schedules", "list", "--scope", "demo", "--json");
    assertThat(list.exit()).as(list.err()).isZero();
    Map<String, JsonNode> listed = new HashMap<>();
    JSON.readTree(list.out()).get("schedules").forEach(s -> listed.put(s.get("id").asText(), s));
    assertThat(listed).containsOnlyKeys("nightly-hr-sync", "hourly-hr-delta-sync", "script-demo");
    JsonNode nightly = listed.get("nightly-hr-sync");
    assertThat(nightly.get("lastRunStatus").asText()).isEqualTo("Complete");
    assertThat(nightly.get("lastRunWorkflowId").asText()).startsWith("nightly-hr-sync/manual/");
    assertThat(nightly.get("lastRunEndedAt").isNull()).isFalse();
    assertThat(nightly.get("lastRunMessage").asText()).isEqualTo("All 6 step(s) complete");
    assertThat(nightly.get("nextRuns")).isNotEmpty();
    assertThat(nightly.get("skippedRuns").asLong()).isZero();
    assertThat(nightly.get("missedRuns").asLong()).isZero();
    JsonNode script = listed.get("script-demo");
    assertThat(script.get("lastRunStatus").asText()).isEqualTo("CompleteWithError");
    assertThat(script.get("lastRunMessage").asText()).contains("Flaky Check");
    JsonNode hourly = listed.get("hourly-hr-delta-sync");
    assertThat(hourly.get("lastRunStatus").isNull()).as("it never ran").isTrue();
    assertThat(hourly.get("nextRuns")).isNotEmpty();

    CliRun table = cli(env, "schedules", "list", "--scope", "demo");
    assertThat(table.out())
        .containsPattern("nightly-hr-sync\\s.*\\sComplete\\s.*All 6 step\\(s\\) complete")
        .containsPattern(
            "script-demo\\s.*\\sCompleteWithError\\s.*\\s0/0\\s+Completed with errors");

    // The worker describes the schedules to Prometheus too: next run, interval from the spec.
    Await.until(
        () ->
            !PrometheusText.parse(worker.get("/actuator/prometheus"))
                .find("jimflow_schedule_interval_seconds", "schedule", "script-demo")
                .isEmpty(),
        "the worker reports the schedule gauges",
        Duration.ofSeconds(60),
        Duration.ofMillis(500));
    PrometheusText metrics = PrometheusText.parse(worker.get("/actuator/prometheus"));
    assertThat(
            metrics.value("jimflow_schedule_next_run_timestamp_seconds", "schedule", "script-demo"))
        .isEqualTo(
            Instant.parse(script.get("nextRuns").get(0).asText()).getEpochSecond(), within(1.0));
    assertThat(metrics.value("jimflow_schedule_interval_seconds", "schedule", "script-demo"))
        .as("a year, give or take a leap day")
        .isBetween(365 * 86400.0, 366 * 86400.0);
    assertThat(metrics.value("jimflow_schedule_paused", "schedule", "script-demo")).isZero();
    assertThat(metrics.value("jimflow_schedule_runs_missed", "schedule", "script-demo")).isZero();
  }

  private static double objects(PrometheusText metrics, String what, String system, String run) {
    return metrics.value("jimflow_objects_" + what + "_total", "system", system, "run_type", run);
  }

  private CliRun cli(E2eEnvironment env, String... args) {
    return CliRun.of(env, namespace, args);
  }
}
