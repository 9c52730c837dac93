package io.jimflow.workitem;

/** The run activity's heartbeat details: the last progress the handler saved. */
public record RunCheckpoint(String stateJson) {}
