package io.jimflow.workitem;

/** A request to cancel an item; the reason is written to its transition log. */
public record CancelRequest(String reason) {}
