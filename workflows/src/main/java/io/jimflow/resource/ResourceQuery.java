package io.jimflow.resource;

/** Which resources a run profile of a connected system touches. */
public record ResourceQuery(String connectedSystem, String runProfile) {}
