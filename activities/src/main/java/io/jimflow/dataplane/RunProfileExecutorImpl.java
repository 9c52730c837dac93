package io.jimflow.dataplane;

import io.jimflow.connector.ConnectorException;
import io.jimflow.connector.csv.CsvObjectReader;
import io.jimflow.connector.ldap.LdapUnavailableException;
import io.jimflow.dataplane.config.ConnectedSystemConfig;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.ObjectTypeConfig;
import io.jimflow.dataplane.config.RunProfileConfig;
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
import io.jimflow.store.Repositories;
import io.jimflow.store.RunRecords;
import io.jimflow.store.RunStatus;
import io.jimflow.store.RunType;
import io.jimflow.store.Store;
import io.jimflow.store.StoreException;
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
import java.util.stream.Collectors;
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
  private final RunTargets targets;
  private final RunRecordLifecycle records;
  private final ImportRunner imports;
  private final SyncRunner syncs;
  private final ExportRunner exports;
  private final ConnectorSpace connectorSpace;
  private final LdapRuns ldap;
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
    this(store, config, baseDirectory, clock, secrets, environment, metrics, 1);
  }

  /**
   * @param syncConnections the store connections a synchronisation page may be written on at once
   *     (the worker's {@code jimflow.sync.connections}; 1 to 8)
   */
  public RunProfileExecutorImpl(
      Store store,
      DataPlaneConfig config,
      Path baseDirectory,
      Clock clock,
      Secrets secrets,
      Function<String, String> environment,
      JimflowMetrics metrics,
      int syncConnections) {
    this.store = store;
    this.config = config;
    this.targets = new RunTargets(config, baseDirectory);
    RunRecords runRecords = new RunRecords(clock);
    this.records =
        new RunRecordLifecycle(
            store,
            runRecords,
            clock,
            metrics,
            new StoreGauges(store, config.systemNames(), metrics, clock));
    Repositories repositories = Repositories.create(clock, config.joinKeyAttributes());
    this.connectorSpace = repositories.connectorSpace();
    SyncEngine engine = new SyncEngine(config.syncRules());
    ThresholdGuard guard = new ThresholdGuard(connectorSpace, repositories.pendingExports());
    this.imports = new ImportRunner(repositories, engine, guard);
    this.syncs = new SyncRunner(repositories, engine, clock, syncConnections);
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
    this.previewer =
        new SchedulePreviewer(store, config, baseDirectory, clock, secrets, environment);
  }

  @Override
  public SchedulePreview preview(PreviewRequest request, StepProgress progress) {
    return previewer.preview(request.definition(), request.initiator(), progress);
  }

  @Override
  public RunProfileOutcome execute(RunProfileRun run, StepProgress progress) {
    ConnectedSystemConfig system = targets.system(run.connectedSystem());
    RunProfileConfig profile = RunTargets.profile(system, run.runProfile());
    Optional<RunProfileOutcome> alreadyDone =
        records.finishedByEarlierAttempt(run, system, profile);
    if (alreadyDone.isPresent()) {
      return alreadyDone.get();
    }
    RunContext context = records.open(run, system, profile, progress);
    ApprovalDecision decision = run.approval();
    if (decision != null && decision.problem().isEmpty() && !decision.approve()) {
      return records.finish(
          context,
          RunStatus.FailedWithError,
          decision.describe() + "; nothing was sent or marked, and what was pending stays pending");
    }
    context.thresholdsApproved = decision != null && decision.problem().isEmpty();
    try {
      switch (profile.runType()) {
        case FullImport, DeltaImport -> {
          ObjectTypeConfig type = RunTargets.objectType(system, profile);
          if (RunTargets.isLdap(system)) {
            ldap.importRun(context, type, imports);
          } else {
            imports.run(
                context,
                type,
                () ->
                    CsvObjectReader.open(
                        targets.file(profile), type.anchor(), RunTargets.settings(system)));
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
          if (RunTargets.isLdap(system)) {
            ldap.exportRun(context, RunTargets.objectType(system, profile));
          } else {
            exports.run(
                context,
                targets.file(profile),
                RunTargets.objectType(system, profile),
                RunTargets.settings(system));
          }
        }
      }
    } catch (ActivityCompletionException | StoreException | LdapUnavailableException e) {
      // Cancellation or a lost store: the record stays InProgress; a retry resumes it, and the
      // workflow finalizes it if no retry comes.
      throw e;
    } catch (ThresholdGuard.RunHeld e) {
      if (run.executionId() == null) {
        return records.finish(context, RunStatus.FailedWithError, e.getMessage());
      }
      // The record stays InProgress: the execution waits for a person, then runs it on.
      log.info("run record {} of {} {}", context.runId, system.name(), e.getMessage());
      records.held(context);
      Map<String, Long> stats = new LinkedHashMap<>(context.totals.asMap());
      stats.put(APPROVAL_TIMEOUT_STAT, system.thresholds().approvalTimeout().toSeconds());
      return new RunProfileOutcome(
          StepStatus.AwaitingApproval,
          e.getMessage()
              + ". Approve or reject it: jimflow executions approve|reject "
              + run.executionId()
              + " --step '"
              + run.stepName()
              + "' --reason TEXT"
              + e.samples().stream().map(line -> "\n  - " + line).collect(Collectors.joining()),
          stats,
          context.runId);
    } catch (ConnectorException | RunContext.TooManyErrors e) {
      return records.finish(context, RunStatus.FailedWithError, e.getMessage());
    } catch (ApplicationFailure e) {
      // A refused secret reference: the run failed and no retry can help.
      records.finish(context, RunStatus.FailedWithError, e.getOriginalMessage());
      throw e;
    } catch (RuntimeException e) {
      log.error("run profile {} of {} failed", profile.name(), system.name(), e);
      return records.finish(context, RunStatus.CompleteWithError, "unhandled error: " + e);
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
    return records.finish(context, status, message);
  }

  @Override
  public Optional<String> abandon(AbandonedRun abandoned) {
    RunProfileRun run = abandoned.run();
    Optional<ConnectedSystemConfig> system = config.system(run.connectedSystem());
    Optional<RunProfileConfig> profile = system.flatMap(s -> s.runProfile(run.runProfile()));
    if (profile.isEmpty() || run.executionId() == null) {
      return Optional.empty();
    }
    return records.abandon(abandoned, system.get(), profile.get());
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
}
