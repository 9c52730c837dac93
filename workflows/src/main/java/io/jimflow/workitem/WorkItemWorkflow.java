package io.jimflow.workitem;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One work item (seed 003): workflow id = InstanceGuid, one workflow run = one instance.
 *
 * <p>The workflow is the work manager: it owns the item until it starts (timer, predecessor, queue,
 * replacement, cancel) and supervises it afterwards (max run time, grace period, restarts). A
 * restart continues as new with the saved state, the instance count and the full transition log.
 */
@WorkflowInterface
public interface WorkItemWorkflow {

  /** The workflow type name, as visibility queries refer to it. */
  String TYPE = "WorkItem";

  @WorkflowMethod(name = TYPE)
  WorkItemView run(WorkItemInput input);

  /**
   * Replaces the not-yet-started item by {@code spec} (scheduling the same guid again); sent as
   * update-with-start so that a new item is created if none runs under the guid.
   */
  @UpdateMethod
  WorkItemView schedule(WorkItemSpec spec);

  /** Refuses a replacement once the item has started: from then on it owns itself. */
  @UpdateValidatorMethod(updateName = "schedule")
  void validateSchedule(WorkItemSpec spec);

  /** Moves the planned start in place; wakes a suspended item. */
  @UpdateMethod
  WorkItemView changeStartTime(StartTimeChange change);

  @UpdateValidatorMethod(updateName = "changeStartTime")
  void validateChangeStartTime(StartTimeChange change);

  /**
   * Before start: Removing → WorkItemFinished(Removed) → Removed; while running: CancellingByUser.
   */
  @UpdateMethod
  WorkItemView cancel(CancelRequest request);

  @UpdateValidatorMethod(updateName = "cancel")
  void validateCancel(CancelRequest request);

  /**
   * Called by the run activity when it starts: Queued → Running, or refused (see {@link RunClaim}).
   */
  @UpdateMethod
  RunGrant claimRun(RunClaim claim);

  @UpdateValidatorMethod(updateName = "claimRun")
  void validateClaimRun(RunClaim claim);

  /** The run activity's worker is shutting down: Running → ShutdownRequest. */
  @SignalMethod
  void shutdownRequested(ShutdownNotice notice);

  /**
   * The attempt the item counts now; a run activity checks its token against it before every write
   * of its handler (the fence of a Killed attempt).
   */
  @QueryMethod
  RunAttempt attempt();

  /** State, category, instance count and the full transition log with times. */
  @QueryMethod
  WorkItemView show();
}
