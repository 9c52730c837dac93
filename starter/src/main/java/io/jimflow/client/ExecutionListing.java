package io.jimflow.client;

import java.util.List;

/**
 * Executions as {@link ExecutionClient#listWithHistory} found them.
 *
 * @param storeAsked false when no worker polled the maintenance task queue, so only Temporal's
 *     executions are listed
 */
public record ExecutionListing(List<ExecutionSummary> executions, boolean storeAsked) {}
