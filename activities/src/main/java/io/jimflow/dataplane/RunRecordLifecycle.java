package io.jimflow.dataplane;

import io.jimflow.dataplane.Checkpoint.Phase;
import io.jimflow.dataplane.config.ConnectedSystemConfig;
import io.jimflow.dataplane.config.RunProfileConfig;
import io.jimflow.maintenance.MaintenanceActivities;
import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.metrics.StoreGauges;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.steps.AbandonedRun;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.schedule.steps.StepProgress;
import io.jimflow.store.ApprovalWaits;
import io.jimflow.store.NewRunRecord;
import io.jimflow.store.RunOrigin;
import io.jimflow.store.RunRecord;
import io.jimflow.store.RunRecords;
import io.jimflow.store.RunStatus;
import io.jimflow.store.Store;
import io.jimflow.store.StoreException;
import io.jimflow.store.SystemCatalog;
import io.jimflow.store.SystemHolds;
import io.jimflow.store.Total;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run record's lifecycle for a run profile run: finds a run an earlier attempt already
 * finished, opens (or resumes) the record, finishes it and counts the run that ended, and ends the
 * record of a run its execution abandoned.
 */
final class RunRecordLifecycle {

  private static final Logger log = LoggerFactory.getLogger(RunProfileExecutorImpl.class);

  private final Store store;
  private final RunRecords runRecords;
  private final SystemCatalog catalog;
  private final SystemHolds systemHolds;
  private final ApprovalWaits approvalWaits;
  private final JimflowMetrics metrics;
  private final StoreGauges gauges;

  RunRecordLifecycle(
      Store store, RunRecords runRecords, Clock clock, JimflowMetrics metrics, StoreGauges gauges) {
    this.store = store;
    this.runRecords = runRecords;
    this.catalog = new SystemCatalog(clock);
    this.systemHolds = new SystemHolds(clock);
    this.approvalWaits = new ApprovalWaits(clock);
    this.metrics = metrics;
    this.gauges = gauges;
  }

  /**
   * Ends the still open record of an abandoned run's step and returns the id of the step's run
   * record, if any.
   */
  Optional<String> abandon(
      AbandonedRun abandoned, ConnectedSystemConfig system, RunProfileConfig profile) {
    RunProfileRun run = abandoned.run();
    RunStatus status =
        abandoned.status() == StepStatus.Cancelled
            ? RunStatus.Cancelled
            : RunStatus.FailedWithError;
    return store.inTransaction(
        c -> {
          Optional<RunRecord> open =
              runRecords.findInProgress(
                  c, run.executionId(), run.stepIndex(), system.id(), profile.id());
          if (open.isPresent()) {
            runRecords.finish(c, open.get().id(), status, abandoned.reason(), null, null, null);
          }
          return runRecords
              .findForStep(c, run.executionId(), run.stepIndex(), system.id(), profile.id())
              .stream()
              .findFirst()
              .map(RunRecord::id);
        });
  }

  Optional<RunProfileOutcome> finishedByEarlierAttempt(
      RunProfileRun run, ConnectedSystemConfig system, RunProfileConfig profile) {
    if (run.attempt() <= 1 || run.executionId() == null) {
      return Optional.empty();
    }
    // A lost attempt may have finished the run but not reported it: report that run, do not redo
    // it.
    List<RunRecord> records =
        store.inTransaction(
            c ->
                runRecords.findForStep(
                    c, run.executionId(), run.stepIndex(), system.id(), profile.id()));
    return records.stream()
        .findFirst()
        .filter(r -> r.status().isFinal())
        .map(RunRecordLifecycle::outcome);
  }

  RunContext open(
      RunProfileRun run,
      ConnectedSystemConfig system,
      RunProfileConfig profile,
      StepProgress progress) {
    RunRecord record =
        store.inTransaction(
            c -> {
              Optional<RunRecord> open =
                  run.executionId() == null
                      ? Optional.empty()
                      : runRecords.findInProgress(
                          c, run.executionId(), run.stepIndex(), system.id(), profile.id());
              if (open.isPresent()) {
                // A run decided on after its hold continues the attempt that held it.
                int attempt =
                    run.approval() == null
                        ? run.attempt()
                        : Math.max(run.attempt(), open.get().attempts());
                runRecords.recordAttempt(c, open.get().id(), attempt);
                if (run.approval() != null) {
                  approvalWaits.release(c, open.get().id());
                }
                return runRecords.find(c, open.get().id()).orElseThrow();
              }
              catalog.save(c, List.of(catalogEntry(system)));
              // Checked after the save has locked the system's row, which a clear or delete locks
              // to take its hold: a run and such a task never both go ahead.
              Optional<String> held = systemHolds.refusal(c, system.id(), profile.name());
              if (held.isPresent()) {
                throw MaintenanceActivities.systemBusy(held.get());
              }
              RunOrigin origin =
                  RunOrigin.of(
                      run.initiator(),
                      run.executionId(),
                      run.scheduleId(),
                      run.stepIndex(),
                      run.stepName());
              String id =
                  runRecords.create(
                      c, new NewRunRecord(system.id(), profile.id(), profile.runType(), origin));
              return runRecords.find(c, id).orElseThrow();
            });
    if (run.approval() != null) {
      refreshApprovals();
    }
    Phase initialPhase = profile.runType().isSynchronisation() ? Phase.SYNC : Phase.ROWS;
    if (record.checkpoint() != null) {
      log.info(
          "resuming run record {} of {} / {} at {}",
          record.id(),
          system.name(),
          profile.name(),
          record.checkpoint());
    }
    return new RunContext(
        record,
        system,
        profile,
        store,
        runRecords,
        progress,
        Checkpoint.parse(record.checkpoint(), initialPhase));
  }

  /**
   * Marks the run waiting for a person's approval: its record stays InProgress, and says since when
   * it waits until the decided run takes it on again.
   */
  void held(RunContext context) {
    store.inTransaction(
        c -> {
          approvalWaits.hold(c, context.runId);
          return null;
        });
    refreshApprovals();
  }

  private void refreshApprovals() {
    try {
      gauges.refreshApprovals();
    } catch (StoreException e) {
      // The gauges' next refresh reads it again; the run is no reason to fail for them.
      log.warn("could not count the runs waiting for an approval: {}", e.getMessage());
    }
  }

  RunProfileOutcome finish(RunContext context, RunStatus status, String message) {
    boolean ended =
        store.inTransaction(
            c ->
                runRecords.finish(
                    c,
                    context.runId,
                    status,
                    message,
                    context.totals,
                    context.processed,
                    context.processed));
    if (ended) {
      countRun(context);
    }
    return store
        .inTransaction(c -> runRecords.find(c, context.runId))
        .map(RunRecordLifecycle::outcome)
        .orElseThrow();
  }

  /**
   * Counts the objects of a run that this call ended, and the exports every connected system has
   * pending now (a synchronisation queues exports for other systems).
   */
  private void countRun(RunContext context) {
    metrics.runEnded(
        context.system.name(),
        context.profile.runType().name(),
        context.processed,
        context.totals.get(Total.ADDED),
        context.totals.get(Total.UPDATED),
        context.totals.get(Total.DELETED),
        context.totals.get(Total.ERRORS));
    try {
      gauges.refreshPendingExports();
    } catch (StoreException e) {
      // The run has ended; a gauge that stays as it was for a while is no reason to retry it.
      log.warn("could not count the pending exports: {}", e.getMessage());
    }
  }

  private static RunProfileOutcome outcome(RunRecord record) {
    Map<String, Long> stats = new LinkedHashMap<>(record.totals().asMap());
    stats.put("objectsProcessed", record.objectsProcessed());
    return new RunProfileOutcome(
        StepStatus.valueOf(record.status().name()), record.message(), stats, record.id());
  }

  private static SystemCatalog.SystemEntry catalogEntry(ConnectedSystemConfig system) {
    return new SystemCatalog.SystemEntry(
        system.id(),
        system.name(),
        system.connectorType(),
        system.runProfiles().stream()
            .map(p -> new SystemCatalog.ProfileEntry(p.id(), p.name(), p.runType()))
            .toList());
  }
}
