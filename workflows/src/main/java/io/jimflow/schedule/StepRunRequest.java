package io.jimflow.schedule;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;

/**
 * One step to run, with what the step runner must know about the execution it belongs to.
 *
 * @param position the step's 0-based place in the schedule's step list; identifies it within the
 *     execution (names are unique only once validated)
 * @param executionId the schedule execution's workflow id
 * @param resumeFrom the progress of the attempt this run resumes, interrupted by its worker's stop;
 *     null for a step's first run
 */
public record StepRunRequest(
    int position,
    String executionId,
    String scheduleId,
    Initiator initiator,
    StepDefinition step,
    StepHeartbeat resumeFrom) {

  public StepRunRequest(
      int position,
      String executionId,
      String scheduleId,
      Initiator initiator,
      StepDefinition step) {
    this(position, executionId, scheduleId, initiator, step, null);
  }

  /** The same step, resumed from {@code checkpoint}. */
  public StepRunRequest resumingFrom(StepHeartbeat checkpoint) {
    return new StepRunRequest(position, executionId, scheduleId, initiator, step, checkpoint);
  }
}
