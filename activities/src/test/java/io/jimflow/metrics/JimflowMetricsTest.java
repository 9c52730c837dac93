package io.jimflow.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.store.ApprovalWaits.Waiting;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JimflowMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final JimflowMetrics metrics = new JimflowMetrics(registry);

  @Test
  void executionsAreCountedByScheduleTriggerAndStatus() {
    metrics.executionStarted("nightly", "Manual");
    metrics.executionStarted("nightly", "Manual");
    metrics.executionEnded("nightly", "Manual", "Failed", Instant.ofEpochSecond(100));

    assertThat(
            registry
                .get("jimflow.executions.started")
                .tags("schedule", "nightly", "trigger", "Manual")
                .counter()
                .count())
        .isEqualTo(2);
    assertThat(
            registry
                .get("jimflow.executions.ended")
                .tags("schedule", "nightly", "status", "Failed")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(registry.find("jimflow.schedule.last.success.timestamp.seconds").gauge())
        .as("a failure is no success")
        .isNull();
  }

  @Test
  void approvalsWaitingAreCountedBySchedulesAndTheOldestAgesAsItIsRead() {
    Instant now = Instant.parse("2026-01-01T10:00:00Z");
    JimflowMetrics timed = new JimflowMetrics(registry, Clock.fixed(now, ZoneOffset.UTC));
    timed.executionCountersOf("hourly");
    timed.approvalsWaiting(
        Map.of(
            "nightly", new Waiting(2, now.minusSeconds(5400)),
            "weekly", new Waiting(1, now.minusSeconds(60))));

    assertThat(approvalGauge("jimflow.executions.awaiting.approval", "nightly")).isEqualTo(2);
    assertThat(approvalGauge("jimflow.approvals.waiting.oldest.seconds", "nightly"))
        .isEqualTo(5400);
    assertThat(approvalGauge("jimflow.approvals.waiting.oldest.seconds", "weekly")).isEqualTo(60);
    assertThat(approvalGauge("jimflow.executions.awaiting.approval", "hourly"))
        .as("a deployed schedule reports 0 from the start")
        .isZero();

    // Decided: the store no longer names it, so its gauges go back to 0.
    timed.approvalsWaiting(Map.of("weekly", new Waiting(1, now.minusSeconds(60))));
    assertThat(approvalGauge("jimflow.executions.awaiting.approval", "nightly")).isZero();
    assertThat(approvalGauge("jimflow.approvals.waiting.oldest.seconds", "nightly")).isZero();
    assertThat(approvalGauge("jimflow.executions.awaiting.approval", "weekly")).isEqualTo(1);
  }

  private double approvalGauge(String name, String schedule) {
    return registry.get(name).tag("schedule", schedule).gauge().value();
  }

  @Test
  void theLastSuccessKeepsTheLatestEndWhateverTheOrderOfTheReports() {
    metrics.executionEnded("nightly", "Scheduled", "Complete", Instant.ofEpochSecond(2000));
    metrics.lastSuccess("nightly", Instant.ofEpochSecond(1000));

    assertThat(
            registry
                .get("jimflow.schedule.last.success.timestamp.seconds")
                .tag("schedule", "nightly")
                .gauge()
                .value())
        .isEqualTo(2000);
  }

  @Test
  void hostileTagValuesCannotMultiplySeries() {
    for (int i = 0; i < JimflowMetrics.MAXIMUM_TAG_VALUES + 50; i++) {
      metrics.executionStarted("schedule-" + i, "Manual");
    }
    metrics.executionStarted("x".repeat(10_000), "Manual");
    metrics.executionStarted(null, "  ");

    assertThat(registry.find("jimflow.executions.started").counters())
        .hasSize(JimflowMetrics.MAXIMUM_TAG_VALUES + 2);
    assertThat(
            registry
                .get("jimflow.executions.started")
                .tags("schedule", JimflowMetrics.OTHER, "trigger", "Manual")
                .counter()
                .count())
        .as("the 50 beyond the bound and the over-long one")
        .isEqualTo(51);
    assertThat(
            registry
                .get("jimflow.executions.started")
                .tags("schedule", "schedule-0", "trigger", "Manual")
                .counter()
                .count())
        .isEqualTo(1);
  }

  @Test
  void runsCountTheirObjectsAndGaugesHoldTheLastValue() {
    metrics.runEnded("HR System", "FullImport", 31, 30, 0, 0, 1);
    metrics.runEnded("HR System", "FullImport", 5, 0, 2, 1, 0);
    metrics.pendingExports("Directory", 30);
    metrics.pendingExports("Directory", 3);
    metrics.lockWaited("nightly", "HR System", Duration.ofSeconds(4));
    metrics.lockWaited("nightly", "HR System", Duration.ofSeconds(-4));
    metrics.stepEnded("nightly", "RunProfile", "Complete", Duration.ofMillis(1500));
    metrics.strandedSwept("execution_record", 2);
    metrics.workItems("Queued", 7);

    assertThat(objects("processed")).isEqualTo(36);
    assertThat(objects("added")).isEqualTo(30);
    assertThat(objects("updated")).isEqualTo(2);
    assertThat(objects("deleted")).isEqualTo(1);
    assertThat(objects("errors")).isEqualTo(1);
    assertThat(registry.get("jimflow.pending.exports").tag("system", "Directory").gauge().value())
        .isEqualTo(3);
    assertThat(registry.get("jimflow.resource.lock.wait").timer().count())
        .as("a negative wait is none")
        .isEqualTo(1);
    assertThat(
            registry
                .get("jimflow.step.duration")
                .timer()
                .totalTime(java.util.concurrent.TimeUnit.MILLISECONDS))
        .isEqualTo(1500);
    assertThat(registry.get("jimflow.stranded.records.swept").counter().count()).isEqualTo(2);
    assertThat(registry.get("jimflow.work.items").tag("state", "Queued").gauge().value())
        .isEqualTo(7);
  }

  private double objects(String what) {
    return registry
        .get("jimflow.objects." + what)
        .tags("system", "HR System", "run_type", "FullImport")
        .counter()
        .count();
  }
}
