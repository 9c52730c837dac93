package io.jimflow.client;

import io.jimflow.schedule.ExecutionStatus;
import java.time.Instant;

/**
 * One execution as a listing shows it.
 *
 * @param endedAt null while it runs
 * @param source where the listing found it: {@link #TEMPORAL}, or {@link #STORE} for an execution
 *     Temporal no longer has (its retention dropped it, or it was deleted)
 */
public record ExecutionSummary(
    String workflowId,
    String runId,
    String scheduleId,
    ExecutionStatus status,
    Instant startedAt,
    Instant endedAt,
    String source) {

  public static final String TEMPORAL = "temporal";
  public static final String STORE = "store";

  public ExecutionSummary(
      String workflowId,
      String runId,
      String scheduleId,
      ExecutionStatus status,
      Instant startedAt,
      Instant endedAt) {
    this(workflowId, runId, scheduleId, status, startedAt, endedAt, TEMPORAL);
  }
}
