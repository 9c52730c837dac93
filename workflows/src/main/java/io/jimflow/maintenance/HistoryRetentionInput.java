package io.jimflow.maintenance;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;

/**
 * One history retention run.
 *
 * @param initiator who started it; null means jimflow itself
 * @param overrides retention periods replacing the worker's configured ones (90 days each by
 *     default); null, or null periods, keep those
 * @param batchSize rows deleted per transaction; null for the worker's configured size
 */
public record HistoryRetentionInput(
    Initiator initiator, RetentionPolicy overrides, Integer batchSize) {}
