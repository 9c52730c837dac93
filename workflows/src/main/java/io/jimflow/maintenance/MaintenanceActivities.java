package io.jimflow.maintenance;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import io.temporal.failure.ApplicationFailure;
import java.time.Instant;
import java.util.Map;

/**
 * The store work of the maintenance workflows. Every method is idempotent, so a retried attempt
 * after a lost one changes nothing twice; long ones work in short transactions and heartbeat.
 */
@ActivityInterface
public interface MaintenanceActivities {

  /** Failure type: the connected system is not in the store. */
  String UNKNOWN_SYSTEM = "UnknownConnectedSystem";

  /** Failure type: another maintenance operation or a run profile holds the connected system. */
  String SYSTEM_BUSY = "ConnectedSystemBusy";

  /**
   * The non-retryable failure ({@link #SYSTEM_BUSY}) of a run profile or a maintenance task that a
   * hold on its connected system refused.
   */
  static ApplicationFailure systemBusy(String message) {
    return ApplicationFailure.newNonRetryableFailure(message, SYSTEM_BUSY);
  }

  /**
   * Deletes the MVOs whose grace period has passed, at most the cycle's cap: creates the
   * deprovision exports the outbound rules ask for, then deletes each MVO and records the deletion
   * in its change history with whoever initiated it. Writes a run record only if there was
   * something to delete.
   */
  @ActivityMethod(name = "DeleteDueMvos")
  MvoDeletionResult deleteDueMvos(MvoDeletionRequest request);

  /**
   * Finds the records that executions left InProgress although Temporal has closed them (or no
   * longer knows them): run records, maintenance run records, execution records and connected
   * system holds. Finalizes each with the status its execution's end implies and a reason.
   */
  @ActivityMethod(name = "SweepStrandedRecords")
  SweepResult sweepStrandedRecords(SweepRequest request);

  /** Deletes one kind of history older than its retention period, in short batches. */
  @ActivityMethod(name = "PurgeHistory")
  PurgeResult purgeHistory(PurgeRequest request);

  /** Creates an InProgress maintenance run record with this id unless it exists. */
  @ActivityMethod(name = "OpenMaintenanceRun")
  void openRun(OpenRunRequest request);

  /** Ends a maintenance run record that is still InProgress; an ended one is left alone. */
  @ActivityMethod(name = "FinishMaintenanceRun")
  void finishRun(FinishRunRequest request);

  /**
   * Marks a connected system as being cleared or deleted, so its run profiles refuse to run. Fails
   * non-retryably ({@link #SYSTEM_BUSY}) while another operation or a run profile holds it, and
   * ({@link #UNKNOWN_SYSTEM}) when the store does not know it.
   */
  @ActivityMethod(name = "BeginSystemOperation")
  void beginSystemOperation(SystemOperationRequest request);

  /** Sets the connected system back to Active if this workflow's operation still holds it. */
  @ActivityMethod(name = "EndSystemOperation")
  void endSystemOperation(SystemOperationRequest request);

  /** Deletes a connected system's objects, their pending exports and (if asked) their history. */
  @ActivityMethod(name = "ClearConnectedSystemObjects")
  Map<String, Long> clearConnectedSystem(ClearSystemRequest request);

  /**
   * Applies the deletion rules to the MVOs joined to a connected system as if its objects were
   * gone: those no other authoritative system holds get their deletion date.
   */
  @ActivityMethod(name = "MarkOrphanedMvos")
  Map<String, Long> markOrphanedMvos(SystemRunRequest request);

  /** Deletes a connected system with its objects, pending exports and run profiles. */
  @ActivityMethod(name = "DeleteConnectedSystem")
  Map<String, Long> deleteConnectedSystem(SystemRunRequest request);

  /**
   * @param workflowId the sweeping workflow (its own records are never stranded)
   */
  record SweepRequest(String workflowId) {}

  /**
   * What one sweep finalized.
   *
   * @param runRecords run records ended Cancelled or FailedWithError
   * @param maintenanceRuns maintenance run records ended likewise
   * @param executions execution records ended with their execution's status
   * @param releasedHolds connected systems set Active again (their clear or delete had ended)
   */
  record SweepResult(int runRecords, int maintenanceRuns, int executions, int releasedHolds) {
    public int total() {
      return runRecords + maintenanceRuns + executions + releasedHolds;
    }
  }

  /**
   * @param runRecordId the id the run record gets if the cycle finds work (stable across retries)
   * @param maxMvos the cycle's cap; null for the worker's configured one
   */
  record MvoDeletionRequest(
      String runRecordId, Initiator initiator, String workflowId, Integer maxMvos) {}

  /**
   * @param runRecordId null when nothing was due (no run record written)
   * @param mvosDeleted how many MVOs this cycle deleted
   * @param deprovisionExports how many delete exports it created
   * @param capReached whether the cap stopped it (more MVOs may be due)
   * @param swept what the cycle's sweep of stranded records finalized; null if it did not sweep
   * @param note what the worker changed of the input (a cap above its own clamped); null if nothing
   */
  record MvoDeletionResult(
      String runRecordId,
      int mvosDeleted,
      int deprovisionExports,
      boolean capReached,
      SweepResult swept,
      @JsonInclude(JsonInclude.Include.NON_NULL) String note) {

    public MvoDeletionResult(
        String runRecordId, int mvosDeleted, int deprovisionExports, boolean capReached) {
      this(runRecordId, mvosDeleted, deprovisionExports, capReached, null, null);
    }

    /** This result with what the cycle's sweep finalized. */
    public MvoDeletionResult withSwept(SweepResult sweep) {
      return new MvoDeletionResult(
          runRecordId, mvosDeleted, deprovisionExports, capReached, sweep, note);
    }

    /** This result with a note of what the worker changed of the input. */
    public MvoDeletionResult withNote(String what) {
      return new MvoDeletionResult(
          runRecordId, mvosDeleted, deprovisionExports, capReached, swept, what);
    }
  }

  /**
   * @param asOf the instant retention periods count back from, fixed by the workflow
   * @param overrides periods that replace the worker's configured ones; null for none
   * @param batchSize rows per transaction; null for the worker's configured size
   */
  record PurgeRequest(
      HistoryKind kind, Instant asOf, RetentionPolicy overrides, Integer batchSize) {}

  /**
   * @param cutoff entries written before it were deleted
   * @param deleted how many entries (change entries, or run records) went
   * @param itemsDeleted run records only: how many of their run items went with them
   * @param note what the worker changed of the request (a period below its own raised, a batch size
   *     above its own clamped); null if nothing
   */
  record PurgeResult(
      HistoryKind kind,
      Instant cutoff,
      long deleted,
      long itemsDeleted,
      long batches,
      @JsonInclude(JsonInclude.Include.NON_NULL) String note) {}

  /**
   * @param connectedSystem null for runs not about one system (housekeeping, retention)
   */
  record OpenRunRequest(
      String runRecordId,
      MaintenanceKind kind,
      String connectedSystem,
      Initiator initiator,
      String workflowId) {}

  /**
   * @param status Complete, CompleteWithError, FailedWithError or Cancelled
   */
  record FinishRunRequest(
      String runRecordId, String status, String message, Map<String, Long> totals) {}

  record SystemOperationRequest(
      String connectedSystem, SystemOperation operation, String workflowId) {}

  record ClearSystemRequest(String connectedSystem, boolean deleteHistory, String runRecordId) {}

  record SystemRunRequest(String connectedSystem, String runRecordId, Initiator initiator) {}
}
