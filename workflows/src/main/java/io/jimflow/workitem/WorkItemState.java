package io.jimflow.workitem;

import static io.jimflow.workitem.WorkItemCategory.ENDED;
import static io.jimflow.workitem.WorkItemCategory.RESTART;
import static io.jimflow.workitem.WorkItemCategory.RUNNING;
import static io.jimflow.workitem.WorkItemCategory.WAITING_FOR_EXECUTION;
import static io.jimflow.workitem.WorkItemCategory.WAITING_FOR_START_CONDITION;

/**
 * The 22 states of a work item instance, each with its category, exactly as seed 003's table.
 *
 * <p>The constant names are the seed's state names so that search attribute values, CLI output and
 * the seed read the same.
 */
public enum WorkItemState {
  WaitingForStart(WAITING_FOR_START_CONDITION),
  WaitingForPredecessor(WAITING_FOR_START_CONDITION),
  Suspended(WAITING_FOR_START_CONDITION),
  Queued(WAITING_FOR_EXECUTION),
  Removing(WAITING_FOR_EXECUTION),
  Running(RUNNING),
  ShutdownRequest(RUNNING),
  CancellingBySystem(RUNNING),
  CancellingByUser(RUNNING),
  Finished(ENDED),
  Removed(ENDED),
  ShutdownConfirmed(ENDED),
  Aborted(ENDED),
  Timeout(ENDED),
  Killed(ENDED),
  Cancelled(ENDED),
  Error(ENDED),
  Reschedule(RESTART),
  ShutdownRestart(RESTART),
  AbortedRestart(RESTART),
  TimeoutRetry(RESTART),
  ErrorRetry(RESTART);

  private final WorkItemCategory category;

  WorkItemState(WorkItemCategory category) {
    this.category = category;
  }

  public WorkItemCategory category() {
    return category;
  }

  /** True before the instance started: only the work manager (the workflow) may change it. */
  public boolean isManagerOwned() {
    return category == WAITING_FOR_START_CONDITION || category == WAITING_FOR_EXECUTION;
  }

  /** True while the run handler executes the instance. */
  public boolean isRunning() {
    return category == RUNNING;
  }

  /** True once the instance has ended, with or without a successor. */
  public boolean hasEnded() {
    return category == ENDED || category == RESTART;
  }
}
