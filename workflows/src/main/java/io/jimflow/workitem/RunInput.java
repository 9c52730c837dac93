package io.jimflow.workitem;

/**
 * The run activity's input; the item itself comes from the claim, so a queued attempt never runs
 * stale.
 */
public record RunInput(String guid, String kind, int instance, long token) {}
