package io.jimflow.schedule.activities;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionRecordActivities.ExecutionRecordWrite;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.StepRecord;
import io.jimflow.schedule.StepStatus;
import io.jimflow.store.Store;
import io.jimflow.store.TestStores;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The execution record's writes count an execution's start, end and steps once each, however often
 * Temporal retries a write and in whatever order the writes arrive.
 */
class ExecutionRecordMetricsTest {

  private static final Instant START = Instant.parse("2026-11-27T02:00:00Z");

  private final Store store = TestStores.postgres();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ExecutionRecordActivitiesImpl activities =
      new ExecutionRecordActivitiesImpl(store, Clock.systemUTC(), new JimflowMetrics(registry));

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void retriedAndReorderedWritesCountTheExecutionAndItsStepsOnce() {
    StepRecord first = step(0, StepStatus.Complete, 0, 3);
    StepRecord second = step(1, StepStatus.FailedWithError, 3, 10);
    ExecutionRecordWrite started = write(1, ExecutionStatus.InProgress, null, List.of());
    ExecutionRecordWrite group = write(2, ExecutionStatus.InProgress, null, List.of(first));
    ExecutionRecordWrite ended =
        write(3, ExecutionStatus.Failed, START.plusSeconds(11), List.of(second));

    activities.recordExecution(group);
    activities.recordExecution(started);
    activities.recordExecution(group);
    activities.recordExecution(ended);
    activities.recordExecution(ended);

    assertThat(count("jimflow.executions.started", "trigger", "Manual")).isEqualTo(1);
    assertThat(count("jimflow.executions.ended", "status", "Failed")).isEqualTo(1);
    assertThat(registry.get("jimflow.step.duration").tag("status", "Complete").timer().count())
        .isEqualTo(1);
    assertThat(
            registry
                .get("jimflow.step.duration")
                .tags("schedule", "nightly", "step_type", "RunProfile", "status", "FailedWithError")
                .timer()
                .totalTime(TimeUnit.SECONDS))
        .isEqualTo(7);
  }

  private double count(String name, String tag, String value) {
    return registry.get(name).tags("schedule", "nightly", tag, value).counter().count();
  }

  private static ExecutionRecordWrite write(
      int revision, ExecutionStatus status, Instant endedAt, List<StepRecord> steps) {
    return new ExecutionRecordWrite(
        revision,
        new ExecutionRecord(
            "nightly/manual/1a2b3c4d",
            "run-1",
            "nightly",
            "Nightly",
            TriggerKind.Manual,
            new Initiator(InitiatorType.User, "u-1", "Ada"),
            status,
            status.isFinal() ? "ended" : null,
            2,
            2,
            START,
            endedAt,
            steps));
  }

  private static StepRecord step(int position, StepStatus status, int from, int to) {
    return new StepRecord(
        position,
        position,
        "step " + position,
        "RunProfile",
        "HR System / Full Import",
        status,
        1,
        START.plusSeconds(from),
        START.plusSeconds(to),
        null,
        null);
  }
}
