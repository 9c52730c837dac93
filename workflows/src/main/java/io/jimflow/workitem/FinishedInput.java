package io.jimflow.workitem;

/**
 * The WorkItemFinished call of one instance.
 *
 * @param finalState the state the instance ended in (Removed for an item cancelled before its
 *     start)
 * @param restartFollows true when a new instance of the item follows (a restart state or
 *     Reschedule)
 */
public record FinishedInput(
    String guid,
    String kind,
    int instance,
    WorkItemState finalState,
    String stateJson,
    boolean restartFollows) {}
