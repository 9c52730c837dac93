package io.jimflow.maintenance.activities;

import io.jimflow.maintenance.MaintenanceActivities;
import io.jimflow.maintenance.MaintenanceKind;
import io.jimflow.maintenance.MvoDeletionPolicy;
import io.jimflow.maintenance.SystemOperation;
import io.jimflow.maintenance.activities.StrandedRecords.Owner;
import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.schedule.Bounded;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.store.ExecutionRecords;
import io.jimflow.store.MaintenanceRuns;
import io.jimflow.store.RunRecords;
import io.jimflow.store.Store;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.failure.ApplicationFailure;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The maintenance activities against the store. Long work heartbeats after every committed batch
 * (the SDK throttles the calls); since every batch is idempotent a retried attempt simply goes on,
 * adding to the counts the lost attempt heartbeated.
 */
public final class MaintenanceActivitiesImpl implements MaintenanceActivities {

  private static final Logger log = LoggerFactory.getLogger(MaintenanceActivitiesImpl.class);

  /** Records of each kind one sweep looks at; the next cycle takes the rest. */
  static final int SWEEP_LIMIT = 500;

  /** The failure type of a clear or delete on a worker that does not allow them. */
  public static final String DESTRUCTIVE_TASKS_DISABLED = "DestructiveMaintenanceDisabled";

  private final StoreMaintenance store;
  private final Store db;
  private final MaintenanceRuns runs;
  private final SystemOperations operations;
  private final MaintenanceSettings settings;
  private final Predicate<String> configuredSystem;
  private final boolean destructiveTasksEnabled;
  private final ExecutionStates executionStates;
  private final RunRecords runRecords;
  private final ExecutionRecords executionRecords;
  private final JimflowMetrics metrics;

  /**
   * @param configuredSystem whether the configuration defines a connected system (by id); a system
   *     known to neither it nor the store is refused
   * @param destructiveTasksEnabled whether this worker clears and deletes connected systems at all
   *     ({@code jimflow.maintenance.destructive-tasks-enabled}); when not, such a task fails before
   *     it touches anything, however it was started
   */
  public MaintenanceActivitiesImpl(
      StoreMaintenance store,
      MaintenanceRuns runs,
      SystemOperations operations,
      MaintenanceSettings settings,
      Predicate<String> configuredSystem,
      boolean destructiveTasksEnabled) {
    this(
        store,
        runs,
        operations,
        settings,
        configuredSystem,
        destructiveTasksEnabled,
        null,
        Clock.systemUTC());
  }

  /**
   * @param executionStates how the sweeper asks Temporal about executions; null for the client of
   *     the activity's own worker
   */
  public MaintenanceActivitiesImpl(
      StoreMaintenance store,
      MaintenanceRuns runs,
      SystemOperations operations,
      MaintenanceSettings settings,
      Predicate<String> configuredSystem,
      boolean destructiveTasksEnabled,
      ExecutionStates executionStates,
      Clock clock) {
    this(
        store,
        runs,
        operations,
        settings,
        configuredSystem,
        destructiveTasksEnabled,
        executionStates,
        clock,
        JimflowMetrics.none());
  }

  /**
   * @param metrics counts the stranded records the sweeper ends
   */
  public MaintenanceActivitiesImpl(
      StoreMaintenance store,
      MaintenanceRuns runs,
      SystemOperations operations,
      MaintenanceSettings settings,
      Predicate<String> configuredSystem,
      boolean destructiveTasksEnabled,
      ExecutionStates executionStates,
      Clock clock,
      JimflowMetrics metrics) {
    this.metrics = metrics;
    this.executionStates = executionStates;
    this.runRecords = new RunRecords(clock);
    this.executionRecords = new ExecutionRecords(clock);
    this.store = store;
    this.db = store.store();
    this.runs = runs;
    this.operations = operations;
    this.settings = settings;
    this.configuredSystem = configuredSystem;
    this.destructiveTasksEnabled = destructiveTasksEnabled;
  }

  @Override
  public MvoDeletionResult deleteDueMvos(MvoDeletionRequest request) {
    Bounded<Integer> bounded =
        badInput(
            () -> MvoDeletionPolicy.maxPerCycle(request.maxMvos(), settings.maxMvosPerCycle()));
    int cap = bounded.value();
    ActivityExecutionContext context = Activity.getExecutionContext();
    boolean resumed = context.getHeartbeatDetails(Long.class).isPresent();
    if (!resumed && !store.anyMvoDue()) {
      return new MvoDeletionResult(null, 0, 0, false).withNote(bounded.note());
    }
    db.inTransaction(
        c ->
            runs.open(
                c,
                request.runRecordId(),
                MaintenanceKind.Housekeeping,
                null,
                request.initiator(),
                request.workflowId(),
                runIdOf(context, request.workflowId())));
    // Counts of a lost attempt are not known here (its batches committed): the record's totals
    // cover this attempt; the change history has every deletion.
    StoreMaintenance.MvoDeletions done =
        store.deleteDueMvos(cap, request.runRecordId(), request.initiator(), context::heartbeat);
    Map<String, Long> totals =
        Map.of(
            "mvosDeleted", (long) done.mvosDeleted(),
            "deprovisionExports", (long) done.deprovisionExports(),
            "errors", (long) done.refused().size());
    String message =
        bounded.clamped() ? done.message(cap) + " (" + bounded.note() + ")" : done.message(cap);
    String status = done.refused().isEmpty() ? "Complete" : "CompleteWithError";
    db.inTransaction(c -> runs.finish(c, request.runRecordId(), status, message, totals));
    done.refused()
        .forEach((mvo, why) -> log.warn("housekeeping could not delete MVO {}: {}", mvo, why));
    log.info(
        "housekeeping deleted {} MVOs, {} deprovision exports",
        done.mvosDeleted(),
        done.deprovisionExports());
    return new MvoDeletionResult(
            request.runRecordId(), done.mvosDeleted(), done.deprovisionExports(), done.capReached())
        .withNote(bounded.note());
  }

  @Override
  public SweepResult sweepStrandedRecords(SweepRequest request) {
    ActivityExecutionContext context = Activity.getExecutionContext();
    ExecutionStates temporal =
        executionStates != null ? executionStates : ExecutionStates.of(context.getWorkflowClient());
    // The sweeping workflow's run: its own records (and those of no later run) are left alone.
    Owner sweeper = new Owner(request.workflowId(), runIdOf(context, request.workflowId()));
    return new StrandedRecordSweep(
            db, runRecords, runs, executionRecords, operations, metrics, SWEEP_LIMIT)
        .sweep(sweeper, temporal, context::heartbeat);
  }

  @Override
  public PurgeResult purgeHistory(PurgeRequest request) {
    PurgeBounds bounds = badInput(() -> PurgeBounds.of(request, settings));
    Instant cutoff = bounds.cutoff();
    ActivityExecutionContext context = Activity.getExecutionContext();
    long before = context.getHeartbeatDetails(Long.class).orElse(0L);
    StoreMaintenance.Purged purged =
        store.purge(request.kind(), cutoff, bounds.plan(), n -> context.heartbeat(before + n));
    return new PurgeResult(
        request.kind(),
        cutoff,
        before + purged.deleted(),
        purged.itemsDeleted(),
        purged.batches(),
        bounds.note());
  }

  @Override
  public void openRun(OpenRunRequest request) {
    String runId = runIdOf(Activity.getExecutionContext(), request.workflowId());
    db.inTransaction(
        c ->
            runs.open(
                c,
                request.runRecordId(),
                request.kind(),
                request.connectedSystem(),
                request.initiator(),
                request.workflowId(),
                runId));
  }

  /**
   * The run of the workflow calling this activity when the request names that workflow (its records
   * then name their run, so that the sweeper tells it from a later run of the same id); null
   * otherwise.
   */
  private static String runIdOf(ActivityExecutionContext context, String workflowId) {
    return workflowId != null && workflowId.equals(context.getInfo().getWorkflowId())
        ? context.getInfo().getRunId()
        : null;
  }

  @Override
  public void finishRun(FinishRunRequest request) {
    db.inTransaction(
        c ->
            runs.finish(
                c, request.runRecordId(), request.status(), request.message(), request.totals()));
  }

  @Override
  public void beginSystemOperation(SystemOperationRequest request) {
    String system = request.connectedSystem();
    if (!destructiveTasksEnabled && request.operation() != SystemOperation.Active) {
      throw ApplicationFailure.newNonRetryableFailure(
          request.operation()
              + " connected system '"
              + system
              + "' refused: this worker does not clear or delete connected systems"
              + " (set jimflow.maintenance.destructive-tasks-enabled=true on the worker to allow it)",
          DESTRUCTIVE_TASKS_DISABLED);
    }
    if (!configuredSystem.test(system) && !store.knowsSystem(system)) {
      throw ApplicationFailure.newNonRetryableFailure(
          "unknown connected system '" + system + "': neither configured nor in the store",
          UNKNOWN_SYSTEM);
    }
    operations.hold(system, request.operation(), request.workflowId());
  }

  @Override
  public void endSystemOperation(SystemOperationRequest request) {
    operations.release(request.connectedSystem(), request.workflowId());
  }

  @Override
  public Map<String, Long> clearConnectedSystem(ClearSystemRequest request) {
    ActivityExecutionContext context = Activity.getExecutionContext();
    return store.clearObjects(
        request.connectedSystem(), request.deleteHistory(), context::heartbeat);
  }

  @Override
  public Map<String, Long> markOrphanedMvos(SystemRunRequest request) {
    ActivityExecutionContext context = Activity.getExecutionContext();
    Initiator initiator = request.initiator();
    return store.markOrphanedMvos(request.connectedSystem(), initiator, context::heartbeat);
  }

  @Override
  public Map<String, Long> deleteConnectedSystem(SystemRunRequest request) {
    ActivityExecutionContext context = Activity.getExecutionContext();
    return store.deleteSystem(request.connectedSystem(), context::heartbeat);
  }

  private static <T> T badInput(java.util.function.Supplier<T> check) {
    try {
      return check.get();
    } catch (IllegalArgumentException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          e.getMessage(), IllegalArgumentException.class.getName());
    }
  }
}
