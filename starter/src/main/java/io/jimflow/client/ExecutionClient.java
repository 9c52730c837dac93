package io.jimflow.client;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.common.TaskQueues;
import io.jimflow.schedule.ApprovalDecision;
import io.jimflow.schedule.Canceller;
import io.jimflow.schedule.ExecutionMetadata;
import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.PreviewRequest;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.SchedulePreview;
import io.jimflow.schedule.SchedulePreviewWorkflow;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowExecutionMetadata;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.common.SearchAttributes;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TerminatedFailure;
import io.temporal.failure.TimeoutFailure;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Schedule executions: start one now (a manual run), follow, wait for, show, cancel and list them.
 * Listing by status relies on Temporal's visibility store, which lags a moment behind; listings and
 * {@link #stored} also read the store's execution history through a worker.
 */
public final class ExecutionClient {

  private final WorkflowClient workflows;
  private final ScheduleDeploymentClient schedules;
  private final ExecutionListings listings;

  ExecutionClient(
      TemporalConnection connection, ScheduleDeploymentClient schedules, RunRecordClient records) {
    this.workflows = connection.workflows();
    this.schedules = schedules;
    this.listings = new ExecutionListings(connection, records);
  }

  /**
   * Starts an execution of a definition now (a manual run) and returns its workflow id, {@code
   * <schedule-id>/manual/<short id>}.
   *
   * @param exclusive refuse to start while an execution of the same schedule is open; without it,
   *     manual runs may overlap as they do in JIM
   * @throws ExecutionAlreadyRunningException when {@code exclusive} and one is open
   */
  public String start(ScheduleDefinition definition, Initiator initiator, boolean exclusive) {
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
   * Previews a schedule: runs its imports and synchronisations in preview mode as a Temporal
   * workflow ({@code <schedule-id>/preview/<short id>}, visible in the UI) and waits for what they
   * would change. Nothing is sent to any target and nothing changes in the store.
   *
   * @throws IllegalStateException when the preview failed, with the worker's reason
   */
  public SchedulePreview preview(ScheduleDefinition definition, Initiator initiator) {
    String workflowId =
        definition.id() + "/preview/" + UUID.randomUUID().toString().substring(0, 8);
    WorkflowStub stub =
        workflows.newUntypedWorkflowStub(
            SchedulePreviewWorkflow.TYPE,
            WorkflowOptions.newBuilder()
                .setWorkflowId(workflowId)
                .setTaskQueue(TaskQueues.SCHEDULES)
                .setStaticSummary("preview of " + definition.name())
                .build());
    stub.start(new PreviewRequest(definition, initiator));
    try {
      return stub.getResult(SchedulePreview.class);
    } catch (WorkflowFailedException e) {
      Throwable cause = e.getCause();
      while (cause != null && !(cause instanceof ApplicationFailure)) {
        cause = cause.getCause();
      }
      String why =
          cause instanceof ApplicationFailure failure
              ? failure.getOriginalMessage()
              : e.getMessage();
      throw new IllegalStateException("preview " + workflowId + " failed: " + why, e);
    }
  }

  /**
   * Starts a manual run of a deployed schedule, with the definition it was last applied with.
   *
   * @throws NotFoundException when no jimflow schedule has this id
   * @see #start(ScheduleDefinition, Initiator, boolean)
   */
  public String start(String scheduleId, Initiator initiator, boolean exclusive) {
    return start(schedules.deployedDefinition(scheduleId), initiator, exclusive);
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
      throw notFound(workflowId);
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
      throw notFound(workflowId);
    }
  }

  /** Whether the execution is still open. */
  public boolean isOpen(String workflowId) {
    return describe(workflowId).getStatus()
        == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
  }

  /**
   * The execution's state for display: its result once ended, its progress while it runs. Either
   * way as an {@link ExecutionResult} (status InProgress while it runs).
   *
   * @throws NotFoundException when Temporal has no execution with this id (see {@link #stored})
   */
  public ExecutionResult show(String workflowId) {
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

  /**
   * Requests cancellation in the name of this process's user ({@code user.name}), as the CLI does.
   *
   * @see #cancel(String, Initiator)
   */
  public void cancel(String workflowId) {
    String user = System.getProperty("user.name", "unknown");
    cancel(workflowId, new Initiator(InitiatorType.User, user, user));
  }

  /**
   * Requests cancellation: running steps end Cancelled, later steps are Skipped, and the execution
   * names {@code canceller} in its message and record ("Cancelled by User alice ...").
   *
   * @throws ExecutionEndedException when the execution has already ended; nothing is changed
   * @throws NotFoundException when no execution has this id
   */
  public void cancel(String workflowId, Initiator canceller) {
    Objects.requireNonNull(canceller, "name who cancels, e.g. a User or an ApiKey");
    refuseIfEnded(workflowId, describe(workflowId));
    try {
      workflows.newUntypedWorkflowStub(workflowId).cancel(Canceller.reason(canceller));
    } catch (WorkflowNotFoundException | StatusRuntimeException e) {
      // It ended between the look and the request.
      refuseIfEnded(workflowId, describe(workflowId));
      throw e;
    }
  }

  private static void refuseIfEnded(String workflowId, WorkflowExecutionDescription description) {
    ExecutionStatus status =
        ExecutionQueries.status(
            description.getStatus(),
            description.getTypedSearchAttributes().get(JimflowSearchAttributes.STATUS));
    if (status.isFinal()) {
      throw new ExecutionEndedException(workflowId, status);
    }
  }

  /**
   * Approves or rejects a step waiting in AwaitingApproval, as a Temporal update: the execution
   * takes the decision or refuses it at once.
   *
   * @return how the decision reads in the records, e.g. {@code step 'Export' approved by ada: ...}
   * @throws IllegalArgumentException when the execution refuses it (no such step awaits approval,
   *     no reason), with its reason
   */
  public String decide(String workflowId, ApprovalDecision decision) {
    describe(workflowId);
    Optional<String> problem = decision.problem();
    if (problem.isPresent()) {
      throw new IllegalArgumentException(problem.get());
    }
    try {
      return workflows
          .newUntypedWorkflowStub(workflowId)
          .update(ApprovalDecision.UPDATE, String.class, decision);
    } catch (WorkflowUpdateException e) {
      Throwable cause = e.getCause();
      String why =
          cause instanceof ApplicationFailure failure
              ? failure.getOriginalMessage()
              : String.valueOf(cause == null ? e.getMessage() : cause.getMessage());
      throw new IllegalArgumentException(
          "execution " + workflowId + " refused the decision: " + why, e);
    }
  }

  /** Executions with a step waiting in AwaitingApproval, newest first. */
  public List<ExecutionSummary> awaitingApproval(String scheduleId, int limit) {
    return listings.awaitingApproval(scheduleId, limit);
  }

  /**
   * Executions Temporal has, newest first as the visibility store returns them.
   *
   * @param scheduleId only this schedule's; all if null
   * @param status only in this status; all if null
   */
  public List<ExecutionSummary> list(String scheduleId, ExecutionStatus status, int limit) {
    return listings.list(scheduleId, status, limit);
  }

  /**
   * Executions newest first from Temporal and, when a worker can read the store, from the execution
   * history too: so the listing still has executions Temporal's retention dropped.
   */
  public ExecutionListing listWithHistory(String scheduleId, ExecutionStatus status, int limit) {
    return listings.listWithHistory(scheduleId, status, limit);
  }

  /**
   * The execution as the store's execution history has it, with the steps it recorded.
   *
   * @throws NotFoundException when the store has no record of it, or no worker can read the store
   */
  public ExecutionRecord stored(String workflowId) {
    return listings.stored(workflowId);
  }

  private WorkflowExecutionDescription describe(String workflowId) {
    try {
      return workflows.newUntypedWorkflowStub(workflowId).describe();
    } catch (WorkflowNotFoundException e) {
      throw notFound(workflowId);
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        throw notFound(workflowId);
      }
      throw e;
    }
  }

  private static NotFoundException notFound(String workflowId) {
    return new NotFoundException("no execution with id " + workflowId);
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
            : cause instanceof TimeoutFailure ? "timed out" : TemporalConnection.rootMessage(cause);
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
}
