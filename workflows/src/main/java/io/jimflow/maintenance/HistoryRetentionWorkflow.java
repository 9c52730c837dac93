package io.jimflow.maintenance;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * Deletes CSO changes, MVO changes and ended run records (with their run items) older than their
 * retention periods, in short transactions, and records the totals in a maintenance run record. The
 * built-in schedule {@code jimflow-history-retention} starts it daily at 02:30.
 *
 * <p>Ends Failed (non-retryable ApplicationFailure) only when no kind could be purged.
 */
@WorkflowInterface
public interface HistoryRetentionWorkflow {

  String TYPE = "HistoryRetention";

  @WorkflowMethod(name = TYPE)
  HistoryRetentionResult run(HistoryRetentionInput input);
}
