package io.jimflow.schedule;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import java.time.Instant;
import java.util.List;

/**
 * One schedule execution as the store keeps it (JIM's ScheduleExecution row), so that its audit
 * trail outlives Temporal's retention of the execution.
 *
 * @param executionId the execution's workflow id
 * @param trigger how it came about; null if the starter did not say
 * @param stepGroups how many step groups its plan has
 * @param stepCount how many steps its plan has
 * @param endedAt null while it runs; when it ended Cancelled, when the cancellation completed
 * @param cancelledBy who cancelled it, as the cancel request named them ({@link Canceller}); null
 *     if it was not cancelled or the request named nobody
 * @param steps the steps the record holds: written once their group has ended, so steps of a group
 *     under way (or of an execution that was terminated) are missing
 */
public record ExecutionRecord(
    String executionId,
    String runId,
    String scheduleId,
    String scheduleName,
    TriggerKind trigger,
    Initiator initiator,
    ExecutionStatus status,
    String message,
    int stepGroups,
    int stepCount,
    Instant startedAt,
    Instant endedAt,
    Initiator cancelledBy,
    List<StepRecord> steps) {

  public ExecutionRecord {
    steps = steps == null ? List.of() : List.copyOf(steps);
  }

  /** A record that names no canceller. */
  public ExecutionRecord(
      String executionId,
      String runId,
      String scheduleId,
      String scheduleName,
      TriggerKind trigger,
      Initiator initiator,
      ExecutionStatus status,
      String message,
      int stepGroups,
      int stepCount,
      Instant startedAt,
      Instant endedAt,
      List<StepRecord> steps) {
    this(
        executionId,
        runId,
        scheduleId,
        scheduleName,
        trigger,
        initiator,
        status,
        message,
        stepGroups,
        stepCount,
        startedAt,
        endedAt,
        null,
        steps);
  }

  /** This record holding other steps. */
  public ExecutionRecord withSteps(List<StepRecord> other) {
    return new ExecutionRecord(
        executionId,
        runId,
        scheduleId,
        scheduleName,
        trigger,
        initiator,
        status,
        message,
        stepGroups,
        stepCount,
        startedAt,
        endedAt,
        cancelledBy,
        other);
  }
}
