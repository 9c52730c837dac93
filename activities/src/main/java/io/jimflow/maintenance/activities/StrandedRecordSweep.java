package io.jimflow.maintenance.activities;

import io.jimflow.maintenance.MaintenanceActivities.SweepResult;
import io.jimflow.maintenance.activities.ExecutionStates.ExecutionState;
import io.jimflow.maintenance.activities.StrandedRecords.Owner;
import io.jimflow.maintenance.activities.StrandedRecords.RunVerdict;
import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.store.ExecutionRecords;
import io.jimflow.store.ExecutionRecords.InProgressExecution;
import io.jimflow.store.MaintenanceRuns;
import io.jimflow.store.RunRecord;
import io.jimflow.store.RunRecords;
import io.jimflow.store.RunStatus;
import io.jimflow.store.Store;
import io.jimflow.store.SystemHolds.Hold;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sweep of the records that ended executions left InProgress (run records, maintenance runs,
 * execution records) and of the holds they left on connected systems: reads them, asks Temporal
 * once per execution, and applies {@link StrandedRecords}' verdicts.
 */
final class StrandedRecordSweep {

  // Under the activities' logger, as the sweep's lines were before it had a class of its own.
  private static final Logger log = LoggerFactory.getLogger(MaintenanceActivitiesImpl.class);

  private final Store db;
  private final RunRecords runRecords;
  private final MaintenanceRuns runs;
  private final ExecutionRecords executionRecords;
  private final SystemOperations operations;
  private final JimflowMetrics metrics;
  private final int limit;

  /**
   * @param limit records of each kind one sweep looks at; the next cycle takes the rest
   */
  StrandedRecordSweep(
      Store db,
      RunRecords runRecords,
      MaintenanceRuns runs,
      ExecutionRecords executionRecords,
      SystemOperations operations,
      JimflowMetrics metrics,
      int limit) {
    this.db = db;
    this.runRecords = runRecords;
    this.runs = runs;
    this.executionRecords = executionRecords;
    this.operations = operations;
    this.metrics = metrics;
    this.limit = limit;
  }

  /**
   * Sweeps once.
   *
   * @param sweeper the sweeping execution (its own records and holds are left alone)
   * @param asked called with the number of executions asked about so far (a heartbeat)
   */
  SweepResult sweep(Owner sweeper, ExecutionStates temporal, IntConsumer asked) {
    // One question per execution and sweep, however many records it left.
    Map<Owner, Optional<ExecutionState>> seen = new HashMap<>();
    Function<Owner, Optional<ExecutionState>> state =
        owner -> {
          Optional<ExecutionState> known = seen.get(owner);
          if (known == null) {
            known = temporal.find(owner.workflowId(), owner.runId());
            seen.put(owner, known);
            asked.accept(seen.size());
          }
          return known;
        };
    int endedRuns = 0;
    for (RunRecord record :
        db.inTransaction(c -> runRecords.list(c, null, RunStatus.InProgress, limit))) {
      String owner = record.origin().executionId();
      Optional<RunVerdict> verdict =
          owner == null
              ? Optional.empty()
              : StrandedRecords.forRun(new Owner(owner, null), state.apply(new Owner(owner, null)));
      if (verdict.isPresent()
          && ended(
              "Run record",
              record.id(),
              verdict.get().status(),
              verdict.get().reason(),
              db.inTransaction(
                  c ->
                      runRecords.finish(
                          c,
                          record.id(),
                          RunStatus.valueOf(verdict.get().status()),
                          verdict.get().reason(),
                          null,
                          null,
                          null)))) {
        endedRuns++;
      }
    }
    int maintenanceRuns = 0;
    for (MaintenanceRuns.MaintenanceRun run : db.inTransaction(c -> runs.inProgress(c, limit))) {
      Optional<RunVerdict> verdict =
          StrandedRecords.forMaintenanceRun(
              new Owner(run.workflowId(), run.runId()), sweeper, state);
      if (verdict.isPresent()
          && ended(
              "Maintenance run",
              run.id(),
              verdict.get().status(),
              verdict.get().reason(),
              db.inTransaction(
                  c ->
                      runs.finish(
                          c,
                          run.id(),
                          verdict.get().status(),
                          verdict.get().reason(),
                          Map.of())))) {
        maintenanceRuns++;
      }
    }
    int executions = 0;
    for (InProgressExecution execution :
        db.inTransaction(c -> executionRecords.inProgress(c, limit))) {
      Owner owner = new Owner(execution.executionId(), execution.runId());
      Optional<StrandedRecords.ExecutionVerdict> verdict =
          StrandedRecords.forExecution(owner, state.apply(owner));
      if (verdict.isPresent()
          && ended(
              "Execution record",
              execution.executionId(),
              verdict.get().status(),
              verdict.get().reason(),
              db.inTransaction(
                  c ->
                      executionRecords.finish(
                          c,
                          execution.executionId(),
                          verdict.get().status(),
                          verdict.get().reason())))) {
        executions++;
      }
    }
    int holds = 0;
    for (Hold hold : operations.all()) {
      if (StrandedRecords.releasesHold(hold.workflowId(), sweeper, state)
          && operations.release(hold.connectedSystem(), hold.workflowId())) {
        holds++;
        log.warn(
            "Connected system {} released: the workflow {} holding it has ended",
            hold.connectedSystem(),
            hold.workflowId());
      }
    }
    metrics.strandedSwept("run_record", endedRuns);
    metrics.strandedSwept("maintenance_run", maintenanceRuns);
    metrics.strandedSwept("execution_record", executions);
    metrics.strandedSwept("system_hold", holds);
    return new SweepResult(endedRuns, maintenanceRuns, executions, holds);
  }

  /** Logs a stranded record that this sweep ended; returns whether it did. */
  private static boolean ended(
      String what, String id, Object status, String reason, boolean endedNow) {
    if (endedNow) {
      log.warn("{} {} finalized {}: {}", what, id, status, reason);
    }
    return endedNow;
  }
}
