package io.jimflow.schedule;

import io.jimflow.resource.ResourceNotice;
import io.jimflow.resource.Resources;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One execution of a schedule (JIM's ScheduleExecution): runs the step groups in index order, each
 * group's steps in parallel, and decides after every group whether to go on.
 *
 * <p>Temporal's own status mirrors the result: Complete and CompleteWithError end Completed, Failed
 * ends Failed (a non-retryable ApplicationFailure whose details carry the {@link ExecutionResult}),
 * Cancelled ends Canceled.
 */
@WorkflowInterface
public interface ScheduleExecutionWorkflow {

  /** The workflow type name, as Temporal Schedules and visibility queries refer to it. */
  String TYPE = "ScheduleExecution";

  /** The signal name of {@link #stepAttemptStarted}, for untyped stubs. */
  String STEP_ATTEMPT_STARTED = "stepAttemptStarted";

  @WorkflowMethod(name = TYPE)
  ExecutionResult run(ScheduleExecutionInput input);

  /** Where the execution stands: current group, each step's state, times and messages. */
  @QueryMethod
  ExecutionProgress progress();

  /**
   * A step's retried attempt has started. Sent by the step activity; a report about a step that has
   * already ended changes nothing.
   */
  @SignalMethod(name = STEP_ATTEMPT_STARTED)
  void stepAttemptStarted(StepAttempt attempt);

  /**
   * A resource lock granted a step's claim, or says who holds what the step waits for. Sent by
   * {@code ResourceLockWorkflow}.
   */
  @SignalMethod(name = Resources.NOTICE_SIGNAL)
  void resourceNotice(ResourceNotice notice);

  /**
   * A person approves or rejects a step waiting in AwaitingApproval; the caller learns at once
   * whether the decision was taken (a decision on a step that does not wait, or with no reason, is
   * refused) and gets back how it reads in the records.
   */
  @UpdateMethod(name = ApprovalDecision.UPDATE)
  String decideApproval(ApprovalDecision decision);

  @UpdateValidatorMethod(updateName = ApprovalDecision.UPDATE)
  void validateApproval(ApprovalDecision decision);

  /**
   * The same decision as a signal, for tools that send signals only: one that is refused is logged
   * and changes nothing.
   */
  @SignalMethod(name = ApprovalDecision.SIGNAL)
  void approvalDecision(ApprovalDecision decision);
}
