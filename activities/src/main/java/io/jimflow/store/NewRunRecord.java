package io.jimflow.store;

/** What a run record starts with. */
public record NewRunRecord(
    String connectedSystem,
    String runProfile,
    RunType runType,
    String initiatorType,
    String initiatorId,
    String initiatorName,
    String executionId,
    String scheduleId,
    Integer stepIndex,
    String stepName) {}
