package io.jimflow.maintenance.activities;

import io.jimflow.maintenance.activities.ExecutionStates.ExecutionState;
import io.jimflow.schedule.ExecutionStatus;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import java.util.Optional;

/**
 * What the sweeper makes of a record left InProgress, from how Temporal sees the execution that
 * owned it: nothing while the execution runs, otherwise a final status and the reason recorded with
 * it.
 */
public final class StrandedRecords {

  private StrandedRecords() {}

  /**
   * How to end a record an execution left InProgress.
   *
   * @param status Cancelled or FailedWithError (a run record's or maintenance run's status)
   * @param reason why, naming the execution
   */
  public record RunVerdict(String status, String reason) {}

  /**
   * How to end an execution record its execution left InProgress.
   *
   * @param status the execution's status as {@code jimflow executions} reports it from Temporal
   */
  public record ExecutionVerdict(ExecutionStatus status, String reason) {}

  /**
   * A run record's (or maintenance run's) end; empty while its execution is open. An execution
   * cancelled or terminated ends it Cancelled, anything else (timed out, failed, unknown, or even
   * completed without finalizing it) FailedWithError.
   */
  public static Optional<RunVerdict> forRun(String workflowId, Optional<ExecutionState> state) {
    if (state.isPresent() && isOpen(state.get().status())) {
      return Optional.empty();
    }
    String reason = "stranded: " + describe(workflowId, state) + " before the record was ended";
    boolean cancelled =
        state.isPresent()
            && (state.get().status() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CANCELED
                || state.get().status()
                    == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED);
    return Optional.of(new RunVerdict(cancelled ? "Cancelled" : "FailedWithError", reason));
  }

  /**
   * An execution record's end; empty while the execution is open. The status is the one Temporal
   * reports (jimflow's own for a completed run), so the store and {@code jimflow executions} agree.
   */
  public static Optional<ExecutionVerdict> forExecution(
      String workflowId, Optional<ExecutionState> state) {
    if (state.isPresent() && isOpen(state.get().status())) {
      return Optional.empty();
    }
    String reason = describe(workflowId, state) + " before it recorded its end";
    if (state.isEmpty()) {
      return Optional.of(new ExecutionVerdict(ExecutionStatus.Failed, reason));
    }
    ExecutionStatus status =
        switch (state.get().status()) {
          case WORKFLOW_EXECUTION_STATUS_COMPLETED ->
              ExecutionStatus.CompleteWithError.name().equals(state.get().jimflowStatus())
                  ? ExecutionStatus.CompleteWithError
                  : ExecutionStatus.Complete;
          case WORKFLOW_EXECUTION_STATUS_CANCELED -> ExecutionStatus.Cancelled;
          default -> ExecutionStatus.Failed;
        };
    return Optional.of(new ExecutionVerdict(status, reason));
  }

  private static boolean isOpen(WorkflowExecutionStatus status) {
    return status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
        || status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW;
  }

  private static String describe(String workflowId, Optional<ExecutionState> state) {
    if (state.isEmpty()) {
      return "execution " + workflowId + " is unknown to Temporal (never started, or deleted)";
    }
    String how =
        switch (state.get().status()) {
          case WORKFLOW_EXECUTION_STATUS_CANCELED -> "was cancelled";
          case WORKFLOW_EXECUTION_STATUS_TERMINATED -> "was terminated";
          case WORKFLOW_EXECUTION_STATUS_TIMED_OUT -> "timed out";
          case WORKFLOW_EXECUTION_STATUS_FAILED -> "failed";
          case WORKFLOW_EXECUTION_STATUS_COMPLETED -> "completed";
          default -> "ended (" + state.get().status() + ")";
        };
    return "execution " + workflowId + " " + how;
  }
}
