package io.jimflow.workitem;

/**
 * What WorkItemFinished sees.
 *
 * @param finalState the state the instance ended in (Removed when cancelled before its start)
 * @param restartFollows true when a new instance of the item follows (restart state or Reschedule)
 */
public record WorkItemFinishedContext(
    String guid,
    String kind,
    int instance,
    WorkItemState finalState,
    String state,
    boolean restartFollows) {}
