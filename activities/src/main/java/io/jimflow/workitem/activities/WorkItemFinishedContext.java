package io.jimflow.workitem.activities;

import io.jimflow.workitem.WorkItemState;
import java.util.concurrent.Callable;

/**
 * What WorkItemFinished sees.
 *
 * @param finalState the state the instance ended in (Removed when cancelled before its start)
 * @param restartFollows true when a new instance of the item follows (restart state or Reschedule)
 * @param fence refuses the call's writes once it overran its limit (see {@link #write})
 */
public record WorkItemFinishedContext(
    String guid,
    String kind,
    int instance,
    WorkItemState finalState,
    String state,
    boolean restartFollows,
    WorkItemFence fence) {

  /** A context whose fence never refuses: for calling a handler outside a worker. */
  public WorkItemFinishedContext(
      String guid,
      String kind,
      int instance,
      WorkItemState finalState,
      String state,
      boolean restartFollows) {
    this(guid, kind, instance, finalState, state, restartFollows, WorkItemFence.OPEN);
  }

  /** Throws {@link WorkItemFencedException} once the call overran its limit. */
  public void checkCurrent() {
    fence.check();
  }

  /** Runs {@code write} only while the call is within its limit. */
  public <T> T write(Callable<T> write) throws Exception {
    return fence.write(write);
  }
}
