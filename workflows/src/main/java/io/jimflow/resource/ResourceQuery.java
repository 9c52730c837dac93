package io.jimflow.resource;

/**
 * Which resources a run profile of a connected system touches; with {@code runProfile} null, the
 * system alone (by its name, whether asked by id or name).
 */
public record ResourceQuery(String connectedSystem, String runProfile) {}
