package io.jimflow.schedule;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import java.time.Duration;

/**
 * One step to run, with what the step runner must know about the execution it belongs to.
 *
 * @param position the step's 0-based place in the schedule's step list; identifies it within the
 *     execution (names are unique only once validated)
 * @param executionId the schedule execution's workflow id
 * @param resumeFrom the progress of the attempt this run resumes, interrupted by its worker's stop;
 *     null for a step's first run
 * @param lockWait how long the step waited for its resources before this run; null if it took none
 *     (only for the worker's metrics)
 * @param approval a person's decision on the step's threshold hold (null: none yet)
 */
public record StepRunRequest(
    int position,
    String executionId,
    String scheduleId,
    Initiator initiator,
    StepDefinition step,
    StepHeartbeat resumeFrom,
    Duration lockWait,
    ApprovalDecision approval) {

  public StepRunRequest(
      int position,
      String executionId,
      String scheduleId,
      Initiator initiator,
      StepDefinition step,
      StepHeartbeat resumeFrom) {
    this(position, executionId, scheduleId, initiator, step, resumeFrom, null, null);
  }

  public StepRunRequest(
      int position,
      String executionId,
      String scheduleId,
      Initiator initiator,
      StepDefinition step) {
    this(position, executionId, scheduleId, initiator, step, null, null, null);
  }

  /** The same step, resumed from {@code checkpoint}. */
  public StepRunRequest resumingFrom(StepHeartbeat checkpoint) {
    return new StepRunRequest(
        position, executionId, scheduleId, initiator, step, checkpoint, lockWait, approval);
  }

  /** The same step, which waited {@code waited} for its resources. */
  public StepRunRequest afterWaiting(Duration waited) {
    return new StepRunRequest(
        position, executionId, scheduleId, initiator, step, resumeFrom, waited, approval);
  }

  /** The same step, run again with a person's decision on its threshold hold. */
  public StepRunRequest decided(ApprovalDecision decision) {
    return new StepRunRequest(
        position, executionId, scheduleId, initiator, step, resumeFrom, lockWait, decision);
  }
}
