package io.jimflow.maintenance.activities;

import io.jimflow.maintenance.activities.ExecutionStates.ExecutionState;
import io.jimflow.schedule.ExecutionStatus;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the sweeper makes of a record left InProgress, from how Temporal sees the execution that
 * owned it: nothing while the execution runs, otherwise a final status and the reason recorded with
 * it. The execution is the owner's run when the record names it: a later run that reuses the
 * workflow id (a connected system's clear started again) is another execution.
 */
public final class StrandedRecords {

  private StrandedRecords() {}

  /**
   * The execution that owns a record.
   *
   * @param runId null for a record written before records named their run: it is then the workflow
   *     id's latest run
   */
  public record Owner(String workflowId, String runId) {

    /** "execution clear-hr" or "execution clear-hr (run 7f3c...)". */
    String describe() {
      return "execution " + workflowId + (runId == null ? "" : " (run " + runId + ")");
    }
  }

  /**
   * Whether a record belongs to the sweeping execution itself (never swept: it is running): the
   * same workflow id and, when the record names its run, the same run; a record of an earlier run
   * of the sweeper's workflow id is another execution's.
   */
  public static boolean isSweepers(Owner owner, Owner sweeper) {
    return owner.workflowId().equals(sweeper.workflowId())
        && (owner.runId() == null || owner.runId().equals(sweeper.runId()));
  }

  /**
   * A maintenance run's end: none for a record without an owner or of the sweeper's own run,
   * otherwise as {@link #forRun}.
   */
  public static Optional<RunVerdict> forMaintenanceRun(
      Owner owner, Owner sweeper, Function<Owner, Optional<ExecutionState>> state) {
    if (owner.workflowId() == null || isSweepers(owner, sweeper)) {
      return Optional.empty();
    }
    return forRun(owner, state.apply(owner));
  }

  /**
   * Whether a connected system's hold is released: its holder (a workflow id: a later run of that
   * id takes the hold over) is not the sweeper and has no open run.
   */
  public static boolean releasesHold(
      String holder, Owner sweeper, Function<Owner, Optional<ExecutionState>> state) {
    Owner owner = new Owner(holder, null);
    return !isSweepers(owner, sweeper) && forRun(owner, state.apply(owner)).isPresent();
  }

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
  public static Optional<RunVerdict> forRun(Owner owner, Optional<ExecutionState> state) {
    if (state.isPresent() && isOpen(state.get().status())) {
      return Optional.empty();
    }
    String reason = "stranded: " + describe(owner, state) + " before the record was ended";
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
      Owner owner, Optional<ExecutionState> state) {
    if (state.isPresent() && isOpen(state.get().status())) {
      return Optional.empty();
    }
    String reason = describe(owner, state) + " before it recorded its end";
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

  private static String describe(Owner owner, Optional<ExecutionState> state) {
    if (state.isEmpty()) {
      return owner.describe() + " is unknown to Temporal (never started, or deleted)";
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
    return owner.describe() + " " + how;
  }
}
