package io.jimflow.store;

/** What a run record starts with. */
public record NewRunRecord(
    String connectedSystem, String runProfile, RunType runType, RunOrigin origin) {}
