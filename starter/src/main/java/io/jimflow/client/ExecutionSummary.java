package io.jimflow.client;

import io.jimflow.schedule.ExecutionStatus;
import java.time.Instant;

/**
 * One execution as a listing shows it.
 *
 * @param endedAt null while it runs
 */
public record ExecutionSummary(
    String workflowId,
    String runId,
    String scheduleId,
    ExecutionStatus status,
    Instant startedAt,
    Instant endedAt) {}
