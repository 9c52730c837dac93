package io.jimflow.dataplane;

import io.jimflow.connector.ConnectorException;
import io.jimflow.connector.csv.CsvObjectReader;
import io.jimflow.connector.csv.CsvSettings;
import io.jimflow.connector.ldap.LdapUnavailableException;
import io.jimflow.dataplane.config.ConnectedSystemConfig;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.ObjectTypeConfig;
import io.jimflow.dataplane.config.RunProfileConfig;
import io.jimflow.maintenance.MaintenanceActivities;
import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.metrics.StoreGauges;
import io.jimflow.resource.Resources;
import io.jimflow.schedule.ApprovalDecision;
import io.jimflow.schedule.PreviewRequest;
import io.jimflow.schedule.SchedulePreview;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.steps.AbandonedRun;
import io.jimflow.schedule.steps.RunProfileExecutor;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.schedule.steps.StepProgress;
import io.jimflow.secrets.activities.Secrets;
import io.jimflow.store.ConnectorSpace;
import io.jimflow.store.NewRunRecord;
import io.jimflow.store.Repositories;
import io.jimflow.store.RunOrigin;
import io.jimflow.store.RunRecord;
import io.jimflow.store.RunRecords;
import io.jimflow.store.RunStatus;
import io.jimflow.store.RunType;
import io.jimflow.store.Store;
import io.jimflow.store.StoreException;
import io.jimflow.store.SystemCatalog;
import io.jimflow.store.SystemHolds;
import io.jimflow.store.Total;
import io.jimflow.sync.SyncEngine;
import io.temporal.client.ActivityCompletionException;
import io.temporal.failure.ApplicationFailure;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs run profiles for real against the store: Full/Delta Import and Export through the CSV or the
 * LDAP connector, Full/Delta Synchronisation through the sync engine.
 *
 * <p>Each run has a run record. Every page (import rows, CSOs, MVO deletions) commits in one
 * transaction with the record's totals and checkpoint, then heartbeats; a retried attempt finds the
 * record still InProgress and continues after the last committed page, so no page applies twice. A
 * connector failure (missing file) ends the run FailedWithError; a store failure propagates so
 * Temporal retries the attempt; any other error ends it CompleteWithError.
 */
public final class RunProfileExecutorImpl implements RunProfileExecutor {

  private static final Logger log = LoggerFactory.getLogger(RunProfileExecutorImpl.class);

  /**
   * The statistic through which a held run tells its execution how long to wait for a decision (the
   * execution's {@code Approvals.WINDOW_STAT}).
   */
  static final String APPROVAL_TIMEOUT_STAT = "approvalTimeoutSeconds";

  private final Store store;
  private final DataPlaneConfig config;
  private final Path baseDirectory;
  private final RunRecords runRecords;
  private final SystemCatalog catalog;
  private final ImportRunner imports;
  private final SyncRunner syncs;
  private final ExportRunner exports;
  private final ConnectorSpace connectorSpace;

  /**
   * @param baseDirectory what relative file paths of run profiles are resolved against (the
   *     worker's working directory by default)
   */
  private final SystemHolds systemHolds;

  private final LdapRuns ldap;
  private final JimflowMetrics metrics;
  private final StoreGauges gauges;
  private final SchedulePreviewer previewer;

  public RunProfileExecutorImpl(
      Store store, DataPlaneConfig config, Path baseDirectory, Clock clock) {
    this(store, config, baseDirectory, clock, Secrets.none(), System::getenv);
  }

  /**
   * @param secrets resolves secret references ({@code ${secret:NAME}}) of connector settings on
   *     this worker
   * @param environment the worker's environment, for settings written {@code ${env:NAME:-default}}
   */
  public RunProfileExecutorImpl(
      Store store,
      DataPlaneConfig config,
      Path baseDirectory,
      Clock clock,
      Secrets secrets,
      Function<String, String> environment) {
    this(store, config, baseDirectory, clock, secrets, environment, JimflowMetrics.none());
  }

  /**
   * @param metrics counts the objects of every run that ends, and the exports then pending
   */
  public RunProfileExecutorImpl(
      Store store,
      DataPlaneConfig config,
      Path baseDirectory,
      Clock clock,
      Secrets secrets,
      Function<String, String> environment,
      JimflowMetrics metrics) {
    this.metrics = metrics;
    this.gauges = new StoreGauges(store, config.systemNames(), metrics, clock);
    this.store = store;
    this.config = config;
    this.baseDirectory = baseDirectory;
    this.runRecords = new RunRecords(clock);
    this.catalog = new SystemCatalog(clock);
    Repositories repositories = Repositories.create(clock, config.joinKeyAttributes());
    this.connectorSpace = repositories.connectorSpace();
    SyncEngine engine = new SyncEngine(config.syncRules());
    ThresholdGuard guard = new ThresholdGuard(connectorSpace, repositories.pendingExports());
    this.imports = new ImportRunner(repositories, engine, guard);
    this.syncs = new SyncRunner(repositories, engine, clock);
    this.exports = new ExportRunner(store, repositories.pendingExports(), guard);
    this.ldap =
        new LdapRuns(
            store,
            runRecords,
            connectorSpace,
            repositories.pendingExports(),
            secrets,
            environment,
            clock,
            guard);
    this.systemHolds = new SystemHolds(clock);
    this.previewer =
        new SchedulePreviewer(store, config, baseDirectory, clock, secrets, environment);
  }

  @Override
  public SchedulePreview preview(PreviewRequest request, StepProgress progress) {
    return previewer.preview(request.definition(), request.initiator(), progress);
  }

  @Override
  public RunProfileOutcome execute(RunProfileRun run, StepProgress progress) {
    ConnectedSystemConfig system = system(run.connectedSystem());
    RunProfileConfig profile = profile(system, run.runProfile());
    Optional<RunProfileOutcome> alreadyDone = finishedByEarlierAttempt(run, system, profile);
    if (alreadyDone.isPresent()) {
      return alreadyDone.get();
    }
    RunContext context = open(run, system, profile, progress);
    ApprovalDecision decision = run.approval();
    if (decision != null && decision.problem().isEmpty() && !decision.approve()) {
      return finish(
          context,
          RunStatus.FailedWithError,
          decision.describe() + "; nothing was sent or marked, and what was pending stays pending");
    }
    context.thresholdsApproved = decision != null && decision.problem().isEmpty();
    try {
      switch (profile.runType()) {
        case FullImport, DeltaImport -> {
          ObjectTypeConfig type = objectType(system, profile);
          if (isLdap(system)) {
            ldap.importRun(context, type, imports);
          } else {
            imports.run(
                context,
                type,
                () -> CsvObjectReader.open(file(profile), type.anchor(), settings(system)));
          }
        }
        case FullSynchronisation, DeltaSynchronisation -> {
          context.total =
              store.inTransaction(
                  c ->
                      profile.runType() == RunType.FullSynchronisation
                          ? connectorSpace.count(c, system.id())
                          : connectorSpace.countSyncPending(c, system.id()));
          syncs.run(context);
        }
        case Export -> {
          if (isLdap(system)) {
            ldap.exportRun(context, objectType(system, profile));
          } else {
            exports.run(context, file(profile), objectType(system, profile), settings(system));
          }
        }
      }
    } catch (ActivityCompletionException | StoreException | LdapUnavailableException e) {
      // Cancellation or a lost store: the record stays InProgress; a retry resumes it, and the
      // workflow finalizes it if no retry comes.
      throw e;
    } catch (ThresholdGuard.RunHeld e) {
      if (run.executionId() == null) {
        return finish(context, RunStatus.FailedWithError, e.getMessage());
      }
      // The record stays InProgress: the execution waits for a person, then runs it on.
      log.info("run record {} of {} {}", context.runId, system.name(), e.getMessage());
      Map<String, Long> stats = new LinkedHashMap<>(context.totals.asMap());
      stats.put(APPROVAL_TIMEOUT_STAT, system.thresholds().approvalTimeout().toSeconds());
      return new RunProfileOutcome(
          StepStatus.AwaitingApproval,
          e.getMessage()
              + ". Approve or reject it: jimflow executions approve|reject "
              + run.executionId()
              + " --step '"
              + run.stepName()
              + "' --reason TEXT",
          stats,
          context.runId);
    } catch (ConnectorException | RunContext.TooManyErrors e) {
      return finish(context, RunStatus.FailedWithError, e.getMessage());
    } catch (ApplicationFailure e) {
      // A refused secret reference: the run failed and no retry can help.
      finish(context, RunStatus.FailedWithError, e.getOriginalMessage());
      throw e;
    } catch (RuntimeException e) {
      log.error("run profile {} of {} failed", profile.name(), system.name(), e);
      return finish(context, RunStatus.CompleteWithError, "unhandled error: " + e);
    }
    // Objects, not run items: unchanged objects write no item, and a run whose only items are a
    // few errors still handled every other object.
    long objects = Math.max(context.processed, context.itemsWritten);
    long errors = context.totals.get(Total.ERRORS);
    RunStatus status = RunOutcomeRule.decide(objects, errors, false);
    String message = errors == 0 ? null : errors + " of " + objects + " objects have errors";
    if (context.thresholdsApproved) {
      message = decision.describe() + (message == null ? "" : "; " + message);
    }
    return finish(context, status, message);
  }

  @Override
  public Optional<String> abandon(AbandonedRun abandoned) {
    RunProfileRun run = abandoned.run();
    Optional<ConnectedSystemConfig> system = config.system(run.connectedSystem());
    Optional<RunProfileConfig> profile = system.flatMap(s -> s.runProfile(run.runProfile()));
    if (profile.isEmpty() || run.executionId() == null) {
      return Optional.empty();
    }
    RunStatus status =
        abandoned.status() == StepStatus.Cancelled
            ? RunStatus.Cancelled
            : RunStatus.FailedWithError;
    return store.inTransaction(
        c -> {
          Optional<RunRecord> open =
              runRecords.findInProgress(
                  c, run.executionId(), run.stepIndex(), system.get().id(), profile.get().id());
          if (open.isPresent()) {
            runRecords.finish(c, open.get().id(), status, abandoned.reason(), null, null, null);
          }
          return runRecords
              .findForStep(
                  c, run.executionId(), run.stepIndex(), system.get().id(), profile.get().id())
              .stream()
              .findFirst()
              .map(RunRecord::id);
        });
  }

  @Override
  public List<String> resources(String connectedSystem, String runProfile) {
    Optional<ConnectedSystemConfig> system = config.system(connectedSystem);
    if (system.isEmpty()) {
      // The step fails on its unknown system; until then it excludes others on that name.
      return List.of(connectedSystem);
    }
    boolean synchronisation =
        runProfile != null
            && system
                .get()
                .runProfile(runProfile)
                .map(p -> p.runType().isSynchronisation())
                .orElse(false);
    return synchronisation
        ? List.of(system.get().name(), Resources.METAVERSE)
        : List.of(system.get().name());
  }

  private Optional<RunProfileOutcome> finishedByEarlierAttempt(
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
        .map(RunProfileExecutorImpl::outcome);
  }

  private RunContext open(
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
    String initialPhase = profile.runType().isSynchronisation() ? Checkpoint.SYNC : Checkpoint.ROWS;
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

  private RunProfileOutcome finish(RunContext context, RunStatus status, String message) {
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
        .map(RunProfileExecutorImpl::outcome)
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

  private ConnectedSystemConfig system(String idOrName) {
    return config
        .system(idOrName)
        .orElseThrow(
            () ->
                ApplicationFailure.newNonRetryableFailure(
                    "unknown connected system '"
                        + idOrName
                        + "' (known: "
                        + String.join(
                            ", ",
                            config.connectedSystems().stream()
                                .map(ConnectedSystemConfig::name)
                                .toList())
                        + ")",
                    "UnknownConnectedSystem"));
  }

  private static RunProfileConfig profile(ConnectedSystemConfig system, String idOrName) {
    return system
        .runProfile(idOrName)
        .orElseThrow(
            () ->
                ApplicationFailure.newNonRetryableFailure(
                    "connected system '"
                        + system.name()
                        + "' has no run profile '"
                        + idOrName
                        + "' (known: "
                        + String.join(
                            ", ",
                            system.runProfiles().stream().map(RunProfileConfig::name).toList())
                        + ")",
                    "UnknownRunProfile"));
  }

  private static ObjectTypeConfig objectType(
      ConnectedSystemConfig system, RunProfileConfig profile) {
    return system.objectType(profile.objectType()).orElseThrow();
  }

  private Path file(RunProfileConfig profile) {
    return baseDirectory.resolve(profile.file()).normalize();
  }

  private static CsvSettings settings(ConnectedSystemConfig system) {
    String delimiter = system.settings().get("delimiter");
    return new CsvSettings(delimiter == null ? ',' : delimiter.charAt(0), system.encoding());
  }

  private static boolean isLdap(ConnectedSystemConfig system) {
    return "ldap".equals(system.connectorType());
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
