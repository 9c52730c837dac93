package io.jimflow.client;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.common.TaskQueues;
import io.jimflow.runrecords.RunRecordsQuestion;
import io.jimflow.schedule.DeployedDefinitions;
import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.deploy.BuiltInSchedules;
import io.jimflow.schedule.deploy.ScheduleMapper;
import io.jimflow.schedule.deploy.SchedulePlan;
import io.jimflow.schedule.deploy.ScheduleReconciler;
import io.jimflow.schedule.deploy.TemporalScheduleStore;
import io.jimflow.schedule.deploy.TriggerSummary;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.schedules.ScheduleActionExecutionStartWorkflow;
import io.temporal.client.schedules.ScheduleActionResult;
import io.temporal.client.schedules.ScheduleBackfill;
import io.temporal.client.schedules.ScheduleDescription;
import io.temporal.client.schedules.ScheduleException;
import io.temporal.client.schedules.ScheduleHandle;
import io.temporal.client.schedules.ScheduleListDescription;
import io.temporal.common.converter.DefaultDataConverter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The Temporal Schedules made from schedules files: plan and apply a file's definitions (per
 * scope), the built-in maintenance schedules, and listing, pausing, resuming, triggering,
 * backfilling and deleting deployed schedules.
 */
public final class ScheduleDeploymentClient {

  /** Bounds the schedules whose latest execution one listing reads from the store. */
  static final int LISTED_SCHEDULES = 1000;

  /** How many of a listing's calls to Temporal run at once. */
  static final int LISTING_CALLS = 8;

  private final TemporalConnection connection;
  private final RunRecordClient records;

  /**
   * @param records reads the latest executions from the store's execution history
   */
  ScheduleDeploymentClient(TemporalConnection connection, RunRecordClient records) {
    this.connection = connection;
    this.records = records;
  }

  /** What {@link #apply} would change in the default scope; changes nothing. */
  public SchedulePlan plan(List<ScheduleDefinition> definitions) {
    return plan(ScheduleReconciler.DEFAULT_SCOPE, definitions);
  }

  /** What {@link #apply(String, List)} would change; changes nothing. */
  public SchedulePlan plan(String scope, List<ScheduleDefinition> definitions) {
    return reconciler().plan(scope, definitions);
  }

  /** {@link #apply(String, List)} in the default scope. */
  public SchedulePlan apply(List<ScheduleDefinition> definitions) {
    return apply(ScheduleReconciler.DEFAULT_SCOPE, definitions);
  }

  /**
   * Creates, updates and deletes the schedules of {@code scope} to match the definitions; other
   * scopes' schedules are left alone, schedules without a scope are adopted when named.
   *
   * @throws io.jimflow.schedule.deploy.ScheduleConflictException when an id belongs to a schedule
   *     jimflow did not create or another scope owns; nothing is changed then
   */
  public SchedulePlan apply(String scope, List<ScheduleDefinition> definitions) {
    return reconciler().apply(scope, definitions);
  }

  /**
   * Creates the built-in schedules (housekeeping, history retention) that are missing, leaving
   * every other schedule alone; what {@code ./jimflow dev} calls at start.
   *
   * @return the ids created
   */
  public List<String> ensureBuiltIns() {
    return reconciler().ensureBuiltIns();
  }

  /**
   * Every schedule of the namespace, jimflow's first, each with its latest execution whatever
   * started it: from the store's execution history when a worker can read it (with how it ended),
   * else from Temporal.
   */
  public List<ScheduleSummary> list() {
    // The store's answer (a short workflow on the maintenance queue) and each schedule's
    // description (and, for some, its latest run) are independent round trips: made at once, a
    // listing takes about as long as the slowest of them, not their sum.
    ExecutorService calls =
        Executors.newFixedThreadPool(
            LISTING_CALLS,
            r -> {
              Thread thread = new Thread(r, "jimflow-schedules-list");
              thread.setDaemon(true);
              return thread;
            });
    List<ScheduleSummary> summaries = new ArrayList<>();
    try {
      CompletableFuture<Map<String, ExecutionRecord>> latest =
          CompletableFuture.supplyAsync(this::latestStored, calls);
      List<CompletableFuture<ScheduleSummary>> described = new ArrayList<>();
      for (ScheduleListDescription listed : connection.schedules().listSchedules().toList()) {
        described.add(
            CompletableFuture.supplyAsync(
                    () -> connection.schedules().getHandle(listed.getScheduleId()).describe(),
                    calls)
                .thenCombineAsync(latest, this::summary, calls));
      }
      for (CompletableFuture<ScheduleSummary> summary : described) {
        summaries.add(joined(summary));
      }
    } finally {
      calls.shutdownNow();
    }
    summaries.sort(
        Comparator.comparing((ScheduleSummary s) -> !s.managed())
            .thenComparing(ScheduleSummary::id));
    return summaries;
  }

  /**
   * The definition a deployed schedule runs (from its action's input).
   *
   * @throws NotFoundException when no schedule has this id, or jimflow did not create it
   */
  public ScheduleDefinition deployedDefinition(String scheduleId) {
    return DeployedDefinitions.of(describe(scheduleId))
        .orElseThrow(
            () -> new NotFoundException("schedule " + scheduleId + " was not created by jimflow"));
  }

  /** Pauses a schedule: it starts nothing until resumed. */
  public void pause(String scheduleId) {
    onSchedule(scheduleId, h -> h.pause("paused with jimflow"));
  }

  public void resume(String scheduleId) {
    onSchedule(scheduleId, h -> h.unpause("resumed with jimflow"));
  }

  /**
   * Starts the schedule's action now, subject to its overlap policy (skip drops it while one runs).
   */
  public void trigger(String scheduleId) {
    ScheduleDescription description = describe(scheduleId);
    onSchedule(scheduleId, h -> h.trigger(description.getSchedule().getPolicy().getOverlap()));
  }

  /**
   * Runs every start the schedule would have made between {@code from} and {@code to}, one after
   * another (buffered), as if it had been deployed then.
   */
  public void backfill(String scheduleId, Instant from, Instant to) {
    if (!from.isBefore(to)) {
      throw new IllegalArgumentException("backfill needs from before to");
    }
    onSchedule(
        scheduleId,
        h ->
            h.backfill(
                List.of(
                    new ScheduleBackfill(
                        from, to, ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL))));
  }

  /**
   * Deletes a schedule; runs it started are left alone.
   *
   * @param force also delete a schedule jimflow did not create
   */
  public void delete(String scheduleId, boolean force) {
    if (BuiltInSchedules.isBuiltIn(scheduleId)) {
      throw new IllegalArgumentException(
          "schedule "
              + scheduleId
              + " is built in and cannot be deleted; pause it with"
              + " 'jimflow schedules pause "
              + scheduleId
              + "' or set 'enabled: false' in the schedules file");
    }
    ScheduleDescription description = describe(scheduleId);
    if (!force && !isManaged(description)) {
      throw new IllegalArgumentException(
          "schedule "
              + scheduleId
              + " was not created by jimflow; not deleting it without --force");
    }
    onSchedule(scheduleId, ScheduleHandle::delete);
  }

  private ScheduleReconciler reconciler() {
    return ScheduleReconciler.withBuiltIns(new TemporalScheduleStore(connection.schedules()));
  }

  /** Each schedule's latest execution in the store; empty when no worker can read the store. */
  private Map<String, ExecutionRecord> latestStored() {
    Map<String, ExecutionRecord> latest = new HashMap<>();
    try {
      if (records != null && connection.hasWorker(TaskQueues.MAINTENANCE)) {
        records
            .ask(RunRecordsQuestion.latestExecutions(LISTED_SCHEDULES))
            .executions()
            .forEach(e -> latest.put(e.scheduleId(), e));
      }
    } catch (RuntimeException e) {
      // An older worker, a lost store: the listing falls back to what Temporal knows.
      return Map.of();
    }
    return latest;
  }

  /** The schedule's latest execution as Temporal's visibility knows it, whatever started it. */
  private Optional<ExecutionSummary> latestInTemporal(String scheduleId) {
    try {
      return connection
          .workflows()
          .listExecutions(ExecutionQueries.list(scheduleId, null))
          .findFirst()
          .map(ExecutionListings::summary);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private ScheduleSummary summary(ScheduleDescription d, Map<String, ExecutionRecord> latest) {
    Optional<ScheduleDefinition> definition =
        DeployedDefinitions.of(d).or(() -> BuiltInSchedules.definitionOf(d));
    List<ScheduleActionResult> recent = d.getInfo().getRecentActions();
    ScheduleActionResult last = recent.isEmpty() ? null : recent.get(recent.size() - 1);
    Instant lastAt = last == null ? null : last.getScheduledAt();
    String lastWorkflowId = null;
    ExecutionStatus lastStatus = null;
    Instant lastEndedAt = null;
    String lastMessage = null;
    ExecutionRecord stored = latest.get(d.getId());
    Optional<ExecutionSummary> inTemporal =
        stored == null && DeployedDefinitions.of(d).isPresent()
            ? latestInTemporal(d.getId())
            : Optional.empty();
    if (stored != null) {
      lastAt = stored.startedAt();
      lastWorkflowId = stored.executionId();
      lastStatus = stored.status();
      lastEndedAt = stored.endedAt();
      lastMessage = stored.message();
    } else if (inTemporal.isPresent()) {
      lastAt = inTemporal.get().startedAt();
      lastWorkflowId = inTemporal.get().workflowId();
      lastStatus = inTemporal.get().status();
      lastEndedAt = inTemporal.get().endedAt();
    } else if (last != null
        && last.getAction() instanceof ScheduleActionExecutionStartWorkflow started) {
      lastWorkflowId = started.getWorkflowId();
      lastStatus = statusOf(started);
    }
    String timeZone = d.getSchedule().getSpec().getTimeZoneName();
    return new ScheduleSummary(
        d.getId(),
        definition.map(ScheduleDefinition::name).orElse(d.getId()),
        definition.map(def -> TriggerSummary.of(def.trigger())).orElse("(not managed by jimflow)"),
        timeZone == null || timeZone.isEmpty() ? "UTC" : timeZone,
        d.getSchedule().getState().isPaused(),
        isManaged(d),
        lastAt,
        lastWorkflowId,
        lastStatus,
        d.getInfo().getNextActionTimes(),
        BuiltInSchedules.isBuiltIn(d.getId()) && isManaged(d),
        TemporalScheduleStore.scopeOf(d),
        lastEndedAt,
        lastMessage,
        d.getInfo().getNumActionsSkippedOverlap(),
        d.getInfo().getNumActionsMissedCatchupWindow());
  }

  /**
   * jimflow's status of a run a schedule started. One plain describe call: a listing asks it for
   * every schedule, and a workflow stub costs a short CLI command more to set up than the call.
   */
  private ExecutionStatus statusOf(ScheduleActionExecutionStartWorkflow started) {
    try {
      WorkflowExecution.Builder execution =
          WorkflowExecution.newBuilder().setWorkflowId(started.getWorkflowId());
      if (started.getFirstExecutionRunId() != null) {
        execution.setRunId(started.getFirstExecutionRunId());
      }
      WorkflowExecutionInfo run =
          connection
              .stubs()
              .blockingStub()
              .describeWorkflowExecution(
                  DescribeWorkflowExecutionRequest.newBuilder()
                      .setNamespace(connection.namespace())
                      .setExecution(execution)
                      .build())
              .getWorkflowExecutionInfo();
      Payload jimflowStatus =
          run.getSearchAttributes()
              .getIndexedFieldsMap()
              .get(JimflowSearchAttributes.STATUS.getName());
      return ExecutionQueries.status(
          run.getStatus(),
          jimflowStatus == null
              ? null
              : DefaultDataConverter.STANDARD_INSTANCE.fromPayload(
                  jimflowStatus, String.class, String.class));
    } catch (RuntimeException e) {
      // Its history may already be gone (retention); the listing still shows when it ran.
      return null;
    }
  }

  private static boolean isManaged(ScheduleDescription d) {
    try {
      return Boolean.TRUE.equals(d.getMemo(ScheduleMapper.MANAGED_MEMO, Boolean.class));
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The value of a listing's call, or the exception the call threw. */
  private static <T> T joined(CompletableFuture<T> call) {
    try {
      return call.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      if (e.getCause() instanceof Error cause) {
        throw cause;
      }
      throw e;
    }
  }

  private ScheduleDescription describe(String scheduleId) {
    ScheduleDescription[] described = new ScheduleDescription[1];
    onSchedule(scheduleId, h -> described[0] = h.describe());
    return described[0];
  }

  /** Acts on a schedule, turning "no such schedule" into a {@link NotFoundException}. */
  private void onSchedule(String scheduleId, Consumer<ScheduleHandle> action) {
    try {
      action.accept(connection.schedules().getHandle(scheduleId));
    } catch (ScheduleException | StatusRuntimeException e) {
      Throwable status = e instanceof StatusRuntimeException ? e : e.getCause();
      if (status instanceof StatusRuntimeException s
          && s.getStatus().getCode() == Status.Code.NOT_FOUND) {
        throw new NotFoundException("no schedule with id " + scheduleId);
      }
      throw e;
    }
  }
}
