package io.jimflow.cli;

import io.jimflow.schedule.ApprovalDecision;
import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ScheduleExecutionInput;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * What a client relies on of the schedule execution workflow: its type name, input, result and the
 * {@code progress} query. Declared for the fake so that it need not follow every workflow change.
 */
@WorkflowInterface
public interface ScheduleExecutionContract {
  @WorkflowMethod(name = ScheduleExecutionWorkflow.TYPE)
  ExecutionResult run(ScheduleExecutionInput input);

  @QueryMethod(name = "progress")
  ExecutionProgress progress();

  @UpdateMethod(name = ApprovalDecision.UPDATE)
  String decideApproval(ApprovalDecision decision);

  @UpdateValidatorMethod(updateName = ApprovalDecision.UPDATE)
  void validateApproval(ApprovalDecision decision);
}
