package io.jimflow.store;

import java.time.Instant;

/**
 * The audit record of one run profile run (JIM's "Activity").
 *
 * @param itemsWritten how many run items the committed pages wrote; the next item's sequence number
 * @param checkpoint where a resumed attempt continues, committed with the page it follows
 */
public record RunRecord(
    String id,
    String connectedSystem,
    String runProfile,
    RunType runType,
    RunStatus status,
    String message,
    String initiatorType,
    String initiatorId,
    String initiatorName,
    String executionId,
    String scheduleId,
    Integer stepIndex,
    String stepName,
    int attempts,
    long objectsToProcess,
    long objectsProcessed,
    long itemsWritten,
    RunTotals totals,
    String checkpoint,
    Instant createdAt,
    Instant updatedAt,
    Instant endedAt) {}
