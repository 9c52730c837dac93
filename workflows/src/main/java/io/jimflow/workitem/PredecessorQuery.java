package io.jimflow.workitem;

/** Asks whether the item {@code guid} has reached a final state. */
public record PredecessorQuery(String guid) {}
