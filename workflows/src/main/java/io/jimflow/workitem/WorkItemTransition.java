package io.jimflow.workitem;

import java.time.Instant;

/**
 * One entry of an item's transition log.
 *
 * @param instance the instance (1-based) the transition belongs to; restarts start a new instance
 * @param from the previous state; null for the very first entry of the item
 * @param note why, when more than the states say (an error message, "replaced", a finished overrun)
 */
public record WorkItemTransition(
    int instance, WorkItemState from, WorkItemState to, Instant at, String note) {}
