package io.jimflow.workitem;

/**
 * What happens to a work item instance; {@link WorkItemLifecycle} says which state each one leads
 * to.
 */
public enum WorkItemEvent {
  /** A waiting item's start time came and it has no unfinished predecessor. */
  START_TIME_REACHED,
  /** A waiting item's start time came but its predecessor has not reached a final state yet. */
  PREDECESSOR_PENDING,
  /** The predecessor reached a final state (or never existed). */
  PREDECESSOR_ENDED,
  /** The start time was changed in place (also wakes a suspended item). */
  START_TIME_CHANGED,
  /**
   * The item was scheduled again under the same guid before it started: a new instance replaces it.
   */
  REPLACED_WITH_START_TIME,
  /** As {@link #REPLACED_WITH_START_TIME}, but the replacement has no start time. */
  REPLACED_SUSPENDED,
  /** A user or program cancelled the item. */
  CANCEL_REQUESTED,
  /** The run handler took the item from the queue: from now on the item owns itself. */
  RUN_CLAIMED,
  /** The maximum run time passed: the item receives WorkItemShouldFinish. */
  MAX_RUN_TIME_REACHED,
  /** The worker running the item is shutting down: the item receives WorkItemShouldFinish. */
  SHUTDOWN_REQUESTED,
  /** The handler returned without declaring its work complete and without planning a successor. */
  RUN_RETURNED,
  /** The handler returned and declared its work complete. */
  RUN_RETURNED_DONE,
  /** The handler returned and planned a successor. */
  RUN_RETURNED_WITH_SUCCESSOR,
  /** The handler threw an exception. */
  RUN_FAILED,
  /** The worker stopped heartbeating (crash, killed process) or ignored a shutdown request. */
  RUN_LOST,
  /** The grace period after WorkItemShouldFinish ran out, or the server's hard time bound hit. */
  GRACE_EXPIRED,
  /** WorkItemFinished was called for an item cancelled before its start. */
  REMOVAL_CONFIRMED
}
