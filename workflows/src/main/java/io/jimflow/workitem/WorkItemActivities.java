package io.jimflow.workitem;

import io.temporal.activity.ActivityInterface;

/**
 * The item-owned part of a work item: running it and telling it that its instance has finished.
 *
 * <p>Both run on {@link io.jimflow.common.TaskQueues#WORK_ITEM_RUNS}, whose worker has a bounded
 * number of activity slots: that bound is the seed's "free process resource".
 */
@ActivityInterface(namePrefix = "WorkItem")
public interface WorkItemActivities {

  /**
   * Claims the item from the workflow and runs its handler; heartbeats carry {@link RunCheckpoint}.
   * Returns normally for every ending of the handler, including an exception.
   */
  RunResult run(RunInput input);

  /**
   * WorkItemFinished: called exactly once per instance that was not replaced, limited to 1 minute.
   */
  void finished(FinishedInput input);
}
