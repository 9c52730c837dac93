package io.jimflow.client;

import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.common.TaskQueues;
import io.jimflow.encryption.PayloadEncryption;
import io.jimflow.runs.RunRecordsAnswer;
import io.jimflow.runs.RunRecordsQuestion;
import io.jimflow.runs.RunRecordsWorkflow;
import io.jimflow.schedule.ExecutionMetadata;
import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedules.ScheduleMapper;
import io.jimflow.schedules.SchedulePlan;
import io.jimflow.schedules.ScheduleReconciler;
import io.jimflow.schedules.TemporalScheduleStore;
import io.jimflow.schedules.TriggerSummary;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.api.enums.v1.TaskQueueType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.DescribeNamespaceRequest;
import io.temporal.api.workflowservice.v1.DescribeTaskQueueRequest;
import io.temporal.api.workflowservice.v1.DescribeTaskQueueResponse;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowExecutionMetadata;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.schedules.ScheduleActionExecutionStartWorkflow;
import io.temporal.client.schedules.ScheduleActionResult;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleBackfill;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import io.temporal.client.schedules.ScheduleDescription;
import io.temporal.client.schedules.ScheduleHandle;
import io.temporal.client.schedules.ScheduleListDescription;
import io.temporal.common.SearchAttributes;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TerminatedFailure;
import io.temporal.failure.TimeoutFailure;
import io.temporal.serviceclient.SimpleSslContextBuilder;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * jimflow for programs: start schedule executions, wait for and inspect them, cancel and list them,
 * and manage the Temporal Schedules made from {@code config/schedules.yaml}.
 *
 * <p>Create one with {@link #connect(ConnectionSettings)} and close it when done; it is
 * thread-safe. Listing by status relies on Temporal's visibility store, which lags a moment behind.
 */
public final class JimflowClient implements AutoCloseable {

  /**
   * How long the first call may take, connection included: a refused connection fails at once, a
   * host that does not answer after this; generous, because on a busy machine setting up gRPC alone
   * can take seconds.
   */
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);

  private final WorkflowClient workflows;
  private final ScheduleClient schedules;
  private final WorkflowServiceStubs ownedStubs;
  private final ClientNetwork network;

  /**
   * Uses clients created elsewhere (e.g. a test environment's); {@link #close()} leaves them open.
   */
  public JimflowClient(WorkflowClient workflows, ScheduleClient schedules) {
    this(workflows, schedules, null, null);
  }

  private JimflowClient(
      WorkflowClient workflows,
      ScheduleClient schedules,
      WorkflowServiceStubs ownedStubs,
      ClientNetwork network) {
    this.workflows = workflows;
    this.schedules = schedules;
    this.ownedStubs = ownedStubs;
    this.network = network;
  }

  /**
   * Connects and checks that the server answers and the namespace exists; payloads are encrypted
   * and decrypted with the keys {@link PayloadEncryption#fromEnvironment()} names, if any.
   *
   * @throws JimflowConnectionException naming the address that failed and how to start a server
   * @throws io.jimflow.encryption.PayloadKeysException when the payload keys cannot be read
   */
  public static JimflowClient connect(ConnectionSettings settings) {
    return connect(settings, PayloadEncryption.fromEnvironment());
  }

  /**
   * Connects like {@link #connect(ConnectionSettings)}, with the given payload encryption (the same
   * keys the workers have, or off).
   */
  public static JimflowClient connect(ConnectionSettings settings, PayloadEncryption encryption) {
    // No health check before the first call: one call that needs the namespace tells both whether
    // the server answers and whether the namespace exists. The SDK asks the server for its
    // capabilities before that call, retrying while it cannot reach it, up to the deadline.
    ClientNetwork network = new ClientNetwork();
    WorkflowServiceStubs stubs;
    try {
      stubs = WorkflowServiceStubs.newServiceStubs(stubOptions(settings, network));
    } catch (RuntimeException e) {
      network.close();
      throw unreachable(settings, e);
    }
    try {
      stubs
          .blockingStub()
          .withDeadline(Deadline.after(CONNECT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .describeNamespace(
              DescribeNamespaceRequest.newBuilder().setNamespace(settings.namespace()).build());
    } catch (StatusRuntimeException e) {
      shutDown(stubs, network);
      throw connectionFailure(settings, e);
    } catch (RuntimeException e) {
      shutDown(stubs, network);
      throw unreachable(settings, e);
    }
    String identity = identity();
    WorkflowClient workflows =
        WorkflowClient.newInstance(
            stubs,
            WorkflowClientOptions.newBuilder()
                .setNamespace(settings.namespace())
                .setIdentity(identity)
                .setDataConverter(encryption.dataConverter())
                .build());
    ScheduleClient scheduleClient =
        ScheduleClient.newInstance(
            stubs,
            ScheduleClientOptions.newBuilder()
                .setNamespace(settings.namespace())
                .setIdentity(identity)
                .setDataConverter(encryption.dataConverter())
                .build());
    return new JimflowClient(workflows, scheduleClient, stubs, network);
  }

  /** Checks and registers jimflow's search attributes in this client's namespace. */
  public io.jimflow.common.SearchAttributeSetup searchAttributeSetup() {
    return new io.jimflow.common.SearchAttributeSetup(
        workflows.getWorkflowServiceStubs(), workflows.getOptions().getNamespace());
  }

  /** The work item API (seed 003): schedule, start time, cancel, show, list. */
  public io.jimflow.workitem.WorkItemClient workItems() {
    return new io.jimflow.workitem.WorkItemClient(workflows);
  }

  // ---- executions -------------------------------------------------------------------------

  /**
   * Starts an execution of a definition now (a manual run) and returns its workflow id, {@code
   * <schedule-id>/manual/<short id>}.
   *
   * @param exclusive refuse to start while an execution of the same schedule is open; without it,
   *     manual runs may overlap as they do in JIM
   * @throws ExecutionAlreadyRunningException when {@code exclusive} and one is open
   */
  public String startExecution(
      ScheduleDefinition definition, Initiator initiator, boolean exclusive) {
    if (exclusive) {
      // Visibility lags slightly behind, so two exclusive starts in the same instant can both pass.
      Optional<WorkflowExecutionMetadata> open =
          workflows.listExecutions(ExecutionQueries.running(definition.id())).findFirst();
      if (open.isPresent()) {
        throw new ExecutionAlreadyRunningException(
            definition.id(), open.get().getExecution().getWorkflowId());
      }
    }
    String workflowId = definition.id() + "/manual/" + UUID.randomUUID().toString().substring(0, 8);
    WorkflowOptions options =
        WorkflowOptions.newBuilder()
            .setWorkflowId(workflowId)
            .setTaskQueue(TaskQueues.SCHEDULES)
            .setTypedSearchAttributes(
                SearchAttributes.newBuilder()
                    .set(JimflowSearchAttributes.SCHEDULE_ID, definition.id())
                    .set(JimflowSearchAttributes.STATUS, ExecutionStatus.InProgress.name())
                    .build())
            .setStaticSummary(ExecutionMetadata.summary(definition, initiator, TriggerKind.Manual))
            .setStaticDetails(ExecutionMetadata.details(definition, initiator, TriggerKind.Manual))
            .build();
    WorkflowStub stub = workflows.newUntypedWorkflowStub(ScheduleExecutionWorkflow.TYPE, options);
    stub.start(new ScheduleExecutionInput(definition, initiator, TriggerKind.Manual, null));
    return workflowId;
  }

  /**
   * Starts a manual run of a deployed schedule, with the definition it was last applied with.
   *
   * @throws NotFoundException when no jimflow schedule has this id
   * @see #startExecution(ScheduleDefinition, Initiator, boolean)
   */
  public String startExecution(String scheduleId, Initiator initiator, boolean exclusive) {
    return startExecution(deployedDefinition(scheduleId), initiator, exclusive);
  }

  /**
   * Waits for an execution to end and returns its result, whatever the outcome: Complete and
   * CompleteWithError as returned, Failed from the failure's details, Cancelled from the run's last
   * progress (when a worker can answer the query; otherwise without step details).
   *
   * @throws NotFoundException when no execution has this id
   */
  public ExecutionResult awaitResult(String workflowId) {
    WorkflowStub stub = workflows.newUntypedWorkflowStub(workflowId);
    try {
      return stub.getResult(ExecutionResult.class);
    } catch (WorkflowNotFoundException e) {
      throw new NotFoundException("no execution with id " + workflowId);
    } catch (WorkflowFailedException e) {
      return resultOfFailure(workflowId, e.getCause());
    }
  }

  /** Where an execution stands now (also after it ended, while a worker can answer the query). */
  public ExecutionProgress progress(String workflowId) {
    try {
      return workflows
          .newUntypedWorkflowStub(workflowId)
          .query("progress", ExecutionProgress.class);
    } catch (WorkflowNotFoundException e) {
      throw new NotFoundException("no execution with id " + workflowId);
    }
  }

  /**
   * Whether any worker has polled the task queue lately (the server remembers pollers for about a
   * minute), i.e. whether started executions will be picked up.
   */
  public boolean hasWorker(String taskQueue) {
    DescribeTaskQueueResponse response =
        workflows
            .getWorkflowServiceStubs()
            .blockingStub()
            .describeTaskQueue(
                DescribeTaskQueueRequest.newBuilder()
                    .setNamespace(workflows.getOptions().getNamespace())
                    .setTaskQueue(TaskQueue.newBuilder().setName(taskQueue))
                    .setTaskQueueType(TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW)
                    .build());
    return response.getPollersCount() > 0;
  }

  /** Whether the execution is still open. */
  public boolean isOpen(String workflowId) {
    return describe(workflowId).getStatus()
        == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
  }

  /**
   * The execution's state for display: its result once ended, its progress while it runs. Either
   * way as an {@link ExecutionResult} (status InProgress while it runs).
   */
  public ExecutionResult execution(String workflowId) {
    WorkflowExecutionDescription description = describe(workflowId);
    if (description.getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      return awaitResult(workflowId);
    }
    ExecutionProgress p = progress(workflowId);
    return new ExecutionResult(
        p.scheduleId(),
        p.scheduleName(),
        p.status(),
        p.message(),
        description.getStartTime(),
        null,
        p.steps());
  }

  /** Requests cancellation: running steps end Cancelled, later steps are Skipped. */
  public void cancel(String workflowId) {
    describe(workflowId);
    workflows.newUntypedWorkflowStub(workflowId).cancel("cancelled with jimflow");
  }

  /**
   * Executions, newest first as the visibility store returns them.
   *
   * @param scheduleId only this schedule's; all if null
   * @param status only in this status; all if null
   */
  public List<ExecutionSummary> listExecutions(
      String scheduleId, ExecutionStatus status, int limit) {
    return workflows
        .listExecutions(ExecutionQueries.list(scheduleId, status))
        .limit(Math.max(limit, 1))
        .map(JimflowClient::summary)
        .toList();
  }

  /**
   * Executions newest first from Temporal and, when a worker can read the store, from the execution
   * history too: so the listing still has executions Temporal's retention dropped.
   *
   * @return the listing and whether the store was asked
   */
  public ExecutionListing listExecutionsWithHistory(
      String scheduleId, ExecutionStatus status, int limit) {
    List<ExecutionSummary> temporal = listExecutions(scheduleId, status, limit);
    if (!canReadStore()) {
      return new ExecutionListing(temporal, false);
    }
    List<ExecutionRecord> stored =
        runRecords(
                RunRecordsQuestion.executions(
                    scheduleId, status == null ? null : status.name(), limit))
            .executions();
    return new ExecutionListing(ExecutionHistories.merge(temporal, stored, limit), true);
  }

  /** Whether a worker polls the maintenance task queue, whose workflows read the store. */
  private boolean canReadStore() {
    try {
      return hasWorker(TaskQueues.MAINTENANCE);
    } catch (StatusRuntimeException e) {
      // Temporal's in-memory test server cannot describe task queues.
      if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
        return false;
      }
      throw e;
    }
  }

  /**
   * @param storeAsked false when no worker polled the maintenance task queue, so only Temporal's
   *     executions are listed
   */
  public record ExecutionListing(List<ExecutionSummary> executions, boolean storeAsked) {}

  /**
   * The execution as the store's execution history has it, with the steps it recorded.
   *
   * @throws NotFoundException when the store has no record of it, or no worker can read the store
   */
  public ExecutionRecord storedExecution(String workflowId) {
    if (!canReadStore()) {
      throw new NotFoundException(
          "no execution with id "
              + workflowId
              + " in Temporal, and no worker on "
              + TaskQueues.MAINTENANCE
              + " to look it up in the store's execution history");
    }
    return runRecords(RunRecordsQuestion.execution(workflowId)).executions().stream()
        .findFirst()
        .orElseThrow(
            () ->
                new NotFoundException(
                    "no execution with id "
                        + workflowId
                        + " (neither in Temporal nor in the store's execution history)"));
  }

  // ---- schedules --------------------------------------------------------------------------

  /** What {@link #applySchedules} would change in the default scope; changes nothing. */
  public SchedulePlan planSchedules(List<ScheduleDefinition> definitions) {
    return planSchedules(ScheduleReconciler.DEFAULT_SCOPE, definitions);
  }

  /** What {@link #applySchedules(String, List)} would change; changes nothing. */
  public SchedulePlan planSchedules(String scope, List<ScheduleDefinition> definitions) {
    return ScheduleReconciler.withBuiltIns(new TemporalScheduleStore(schedules))
        .plan(scope, definitions);
  }

  /** {@link #applySchedules(String, List)} in the default scope. */
  public SchedulePlan applySchedules(List<ScheduleDefinition> definitions) {
    return applySchedules(ScheduleReconciler.DEFAULT_SCOPE, definitions);
  }

  /**
   * Creates, updates and deletes the schedules of {@code scope} to match the definitions; other
   * scopes' schedules are left alone, schedules without a scope are adopted when named.
   *
   * @throws io.jimflow.schedules.ScheduleConflictException when an id belongs to a schedule jimflow
   *     did not create or another scope owns; nothing is changed then
   */
  public SchedulePlan applySchedules(String scope, List<ScheduleDefinition> definitions) {
    return ScheduleReconciler.withBuiltIns(new TemporalScheduleStore(schedules))
        .apply(scope, definitions);
  }

  /**
   * Creates the built-in schedules (housekeeping, history retention) that are missing, leaving
   * every other schedule alone; what {@code ./jimflow dev} calls at start.
   *
   * @return the ids created
   */
  public List<String> ensureBuiltInSchedules() {
    return ScheduleReconciler.withBuiltIns(new TemporalScheduleStore(schedules)).ensureBuiltIns();
  }

  /** Every schedule of the namespace, jimflow's first. */
  public List<ScheduleSummary> listSchedules() {
    List<ScheduleSummary> summaries = new ArrayList<>();
    for (ScheduleListDescription listed : schedules.listSchedules().toList()) {
      summaries.add(scheduleSummary(schedules.getHandle(listed.getScheduleId()).describe()));
    }
    summaries.sort(
        java.util.Comparator.comparing((ScheduleSummary s) -> !s.managed())
            .thenComparing(ScheduleSummary::id));
    return summaries;
  }

  /** The definition a deployed schedule runs (from its action's input). */
  public ScheduleDefinition deployedDefinition(String scheduleId) {
    return definitionOf(describeSchedule(scheduleId))
        .orElseThrow(
            () -> new NotFoundException("schedule " + scheduleId + " was not created by jimflow"));
  }

  public void pauseSchedule(String scheduleId) {
    onSchedule(scheduleId, h -> h.pause("paused with jimflow"));
  }

  public void resumeSchedule(String scheduleId) {
    onSchedule(scheduleId, h -> h.unpause("resumed with jimflow"));
  }

  /**
   * Starts the schedule's action now, subject to its overlap policy (skip drops it while one runs).
   */
  public void triggerSchedule(String scheduleId) {
    ScheduleDescription description = describeSchedule(scheduleId);
    onSchedule(scheduleId, h -> h.trigger(description.getSchedule().getPolicy().getOverlap()));
  }

  /**
   * Runs every start the schedule would have made between {@code from} and {@code to}, one after
   * another (buffered), as if it had been deployed then.
   */
  public void backfillSchedule(String scheduleId, Instant from, Instant to) {
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
  public void deleteSchedule(String scheduleId, boolean force) {
    if (io.jimflow.schedules.BuiltInSchedules.isBuiltIn(scheduleId)) {
      throw new IllegalArgumentException(
          "schedule "
              + scheduleId
              + " is built in and cannot be deleted; pause it with"
              + " 'jimflow schedules pause "
              + scheduleId
              + "' or set 'enabled: false' in the schedules file");
    }
    ScheduleDescription description = describeSchedule(scheduleId);
    if (!force && !isManaged(description)) {
      throw new IllegalArgumentException(
          "schedule "
              + scheduleId
              + " was not created by jimflow; not deleting it without --force");
    }
    onSchedule(scheduleId, ScheduleHandle::delete);
  }

  /** Maintenance tasks: housekeeping now, clearing and deleting connected systems. */
  public MaintenanceClient maintenance() {
    return new MaintenanceClient(workflows);
  }

  /**
   * Asks a worker about run records (the store is the worker's): a short workflow on the
   * maintenance task queue whose activity reads them.
   *
   * @throws JimflowConnectionException when no worker answers within a minute
   */
  public RunRecordsAnswer runRecords(RunRecordsQuestion question) {
    RunRecordsWorkflow workflow =
        workflows.newWorkflowStub(
            RunRecordsWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId("jimflow-runs/" + UUID.randomUUID().toString().substring(0, 8))
                .setTaskQueue(TaskQueues.MAINTENANCE)
                .setWorkflowExecutionTimeout(Duration.ofMinutes(1))
                .setStaticSummary("Read run records: " + question.kind())
                .build());
    try {
      return workflow.run(question);
    } catch (WorkflowFailedException e) {
      Throwable cause = e.getCause();
      while (cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof io.temporal.failure.TimeoutFailure) {
        throw new JimflowConnectionException(
            "no worker answered on "
                + TaskQueues.MAINTENANCE
                + " within a minute; start one with ./jimflow dev",
            e);
      }
      throw new IllegalArgumentException(
          cause instanceof io.temporal.failure.ApplicationFailure app
              ? app.getOriginalMessage()
              : cause.getMessage());
    }
  }

  @Override
  public void close() {
    if (ownedStubs != null) {
      shutDown(ownedStubs, network);
    }
  }

  /** Ends the channel, then its network thread (the calls made through them have all ended). */
  private static void shutDown(WorkflowServiceStubs stubs, ClientNetwork network) {
    stubs.shutdown();
    if (!stubs.awaitTermination(1, TimeUnit.SECONDS)) {
      stubs.shutdownNow();
    }
    network.close();
  }

  // ---- helpers ----------------------------------------------------------------------------

  private WorkflowExecutionDescription describe(String workflowId) {
    try {
      return workflows.newUntypedWorkflowStub(workflowId).describe();
    } catch (WorkflowNotFoundException e) {
      throw new NotFoundException("no execution with id " + workflowId);
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        throw new NotFoundException("no execution with id " + workflowId);
      }
      throw e;
    }
  }

  private ExecutionResult resultOfFailure(String workflowId, Throwable cause) {
    WorkflowExecutionDescription description = describe(workflowId);
    String scheduleId =
        description.getTypedSearchAttributes().get(JimflowSearchAttributes.SCHEDULE_ID);
    if (cause instanceof ApplicationFailure failure) {
      try {
        ExecutionResult result = failure.getDetails().get(ExecutionResult.class);
        if (result != null) {
          return result;
        }
      } catch (RuntimeException notAResult) {
        // An unexpected failure (e.g. a bug) carries no result; reported below with its message.
      }
    }
    if (cause instanceof CanceledFailure) {
      ExecutionProgress last = lastProgress(workflowId);
      return new ExecutionResult(
          last == null ? scheduleId : last.scheduleId(),
          last == null ? null : last.scheduleName(),
          ExecutionStatus.Cancelled,
          last == null ? "cancelled (no worker answered for step details)" : last.message(),
          description.getStartTime(),
          description.getCloseTime(),
          last == null ? List.of() : last.steps());
    }
    String message =
        cause instanceof TerminatedFailure
            ? "terminated: " + cause.getMessage()
            : cause instanceof TimeoutFailure ? "timed out" : rootMessage(cause);
    ExecutionProgress last = lastProgress(workflowId);
    return new ExecutionResult(
        scheduleId,
        last == null ? null : last.scheduleName(),
        ExecutionStatus.Failed,
        message,
        description.getStartTime(),
        description.getCloseTime(),
        last == null ? List.of() : last.steps());
  }

  private ExecutionProgress lastProgress(String workflowId) {
    try {
      return progress(workflowId);
    } catch (RuntimeException e) {
      // Querying a closed run needs a worker to replay it; without one the result lacks steps.
      return null;
    }
  }

  private static ExecutionSummary summary(WorkflowExecutionMetadata m) {
    SearchAttributes attributes = m.getTypedSearchAttributes();
    return new ExecutionSummary(
        m.getExecution().getWorkflowId(),
        m.getExecution().getRunId(),
        attributes.get(JimflowSearchAttributes.SCHEDULE_ID),
        ExecutionQueries.status(m.getStatus(), attributes.get(JimflowSearchAttributes.STATUS)),
        m.getStartTime(),
        m.getCloseTime());
  }

  private ScheduleSummary scheduleSummary(ScheduleDescription d) {
    Optional<ScheduleDefinition> definition =
        definitionOf(d).or(() -> io.jimflow.schedules.BuiltInSchedules.definitionOf(d));
    List<ScheduleActionResult> recent = d.getInfo().getRecentActions();
    ScheduleActionResult last = recent.isEmpty() ? null : recent.get(recent.size() - 1);
    String lastWorkflowId = null;
    ExecutionStatus lastStatus = null;
    if (last != null && last.getAction() instanceof ScheduleActionExecutionStartWorkflow started) {
      lastWorkflowId = started.getWorkflowId();
      lastStatus = statusOf(started);
    }
    return new ScheduleSummary(
        d.getId(),
        definition.map(ScheduleDefinition::name).orElse(d.getId()),
        definition.map(def -> TriggerSummary.of(def.trigger())).orElse("(not managed by jimflow)"),
        d.getSchedule().getSpec().getTimeZoneName() == null
                || d.getSchedule().getSpec().getTimeZoneName().isEmpty()
            ? "UTC"
            : d.getSchedule().getSpec().getTimeZoneName(),
        d.getSchedule().getState().isPaused(),
        isManaged(d),
        last == null ? null : last.getScheduledAt(),
        lastWorkflowId,
        lastStatus,
        d.getInfo().getNextActionTimes(),
        io.jimflow.schedules.BuiltInSchedules.isBuiltIn(d.getId()) && isManaged(d),
        TemporalScheduleStore.scopeOf(d));
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
          workflows
              .getWorkflowServiceStubs()
              .blockingStub()
              .describeWorkflowExecution(
                  DescribeWorkflowExecutionRequest.newBuilder()
                      .setNamespace(workflows.getOptions().getNamespace())
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

  private static Optional<ScheduleDefinition> definitionOf(ScheduleDescription d) {
    if (!(d.getSchedule().getAction() instanceof ScheduleActionStartWorkflow action)
        || !ScheduleExecutionWorkflow.TYPE.equals(action.getWorkflowType())) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(action.getArguments().get(0, ScheduleExecutionInput.class))
          .map(ScheduleExecutionInput::definition);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static boolean isManaged(ScheduleDescription d) {
    try {
      return Boolean.TRUE.equals(d.getMemo(ScheduleMapper.MANAGED_MEMO, Boolean.class));
    } catch (RuntimeException e) {
      return false;
    }
  }

  private ScheduleDescription describeSchedule(String scheduleId) {
    ScheduleDescription[] described = new ScheduleDescription[1];
    onSchedule(scheduleId, h -> described[0] = h.describe());
    return described[0];
  }

  /** Acts on a schedule, turning "no such schedule" into a {@link NotFoundException}. */
  private void onSchedule(String scheduleId, java.util.function.Consumer<ScheduleHandle> action) {
    try {
      action.accept(schedules.getHandle(scheduleId));
    } catch (io.temporal.client.schedules.ScheduleException | StatusRuntimeException e) {
      Throwable status = e instanceof StatusRuntimeException ? e : e.getCause();
      if (status instanceof StatusRuntimeException s
          && s.getStatus().getCode() == Status.Code.NOT_FOUND) {
        throw new NotFoundException("no schedule with id " + scheduleId);
      }
      throw e;
    }
  }

  private static JimflowConnectionException connectionFailure(
      ConnectionSettings settings, StatusRuntimeException e) {
    Status.Code code = e.getStatus().getCode();
    if (code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED) {
      return unreachable(settings, e);
    }
    String reason =
        code == Status.Code.NOT_FOUND
            ? "does not exist"
            : "cannot be used (" + code + ": " + e.getStatus().getDescription() + ")";
    return new JimflowConnectionException(
        "Temporal at "
            + settings.address()
            + " answers, but namespace '"
            + settings.namespace()
            + "' "
            + reason
            + ".",
        e);
  }

  private static JimflowConnectionException unreachable(
      ConnectionSettings settings, RuntimeException e) {
    return new JimflowConnectionException(
        "Cannot reach Temporal at "
            + settings.address()
            + " ("
            + rootMessage(e)
            + "). Start a local server with ./jimflow dev, or point --address / TEMPORAL_ADDRESS"
            + " at yours.",
        e);
  }

  /**
   * Who the server records as the caller of what this client does: {@code pid@host}, the SDK's own
   * default, but without the JVM's management beans, whose start the SDK would pay for it and which
   * is a noticeable part of a short CLI command's time.
   */
  static String identity() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException | RuntimeException e) {
      host = "localhost";
    }
    return ProcessHandle.current().pid() + "@" + host;
  }

  private static WorkflowServiceStubsOptions stubOptions(
      ConnectionSettings settings, ClientNetwork network) {
    WorkflowServiceStubsOptions.Builder options =
        network.apply(WorkflowServiceStubsOptions.newBuilder().setTarget(settings.address()));
    if (settings.tlsCert() != null) {
      try (InputStream cert = Files.newInputStream(settings.tlsCert());
          InputStream key = Files.newInputStream(settings.tlsKey())) {
        options.setSslContext(SimpleSslContextBuilder.forPKCS8(cert, key).build());
      } catch (IOException e) {
        throw new JimflowConnectionException(
            "Cannot read the TLS certificate "
                + settings.tlsCert()
                + " or key "
                + settings.tlsKey()
                + ": "
                + e.getMessage(),
            e);
      }
    } else if (settings.apiKey() != null) {
      options.setEnableHttps(true);
    }
    if (settings.apiKey() != null) {
      String apiKey = settings.apiKey();
      options.addApiKey(() -> apiKey);
    }
    return options.build();
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}
