package io.jimflow.workitem;

import io.temporal.activity.ActivityInterface;

/**
 * Work-manager look-ups the workflow cannot do itself; they run on the work item workflow queue.
 */
@ActivityInterface(namePrefix = "WorkItem")
public interface WorkItemManagerActivities {

  /** True when the item has reached a final state, or was never scheduled. */
  boolean predecessorEnded(PredecessorQuery query);
}
