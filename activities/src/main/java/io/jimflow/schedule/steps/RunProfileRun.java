package io.jimflow.schedule.steps;

import io.jimflow.schedule.ApprovalDecision;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;

/**
 * One run of a run profile within a schedule execution.
 *
 * @param executionId the schedule execution's workflow id
 * @param attempt the step activity's attempt number, starting at 1
 * @param approval a person's decision on the run's threshold hold (null: none)
 */
public record RunProfileRun(
    String connectedSystem,
    String runProfile,
    String executionId,
    String scheduleId,
    int stepIndex,
    String stepName,
    Initiator initiator,
    int attempt,
    ApprovalDecision approval) {

  public RunProfileRun(
      String connectedSystem,
      String runProfile,
      String executionId,
      String scheduleId,
      int stepIndex,
      String stepName,
      Initiator initiator,
      int attempt) {
    this(
        connectedSystem,
        runProfile,
        executionId,
        scheduleId,
        stepIndex,
        stepName,
        initiator,
        attempt,
        null);
  }
}
