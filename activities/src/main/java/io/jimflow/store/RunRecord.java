package io.jimflow.store;

import java.time.Instant;

/**
 * The audit record of one run profile run (JIM's "Activity").
 *
 * @param origin who started the run, from which schedule execution step
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
    RunOrigin origin,
    int attempts,
    long objectsToProcess,
    long objectsProcessed,
    long itemsWritten,
    RunTotals totals,
    String checkpoint,
    Instant createdAt,
    Instant updatedAt,
    Instant endedAt) {}
