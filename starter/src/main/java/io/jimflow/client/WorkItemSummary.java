package io.jimflow.client;

import java.time.Instant;

/**
 * One line of {@link WorkItemClient#list}: what visibility knows about an item without asking it.
 *
 * @param status Temporal's execution status of the item's current run (Running, Completed, …)
 * @param runId the current instance's run id (the seed's internal Oid)
 */
public record WorkItemSummary(
    String guid, String kind, String state, String status, String runId, Instant runStartedAt) {}
