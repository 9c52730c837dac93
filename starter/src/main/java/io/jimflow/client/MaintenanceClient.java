package io.jimflow.client;

import io.jimflow.common.TaskQueues;
import io.jimflow.exampledata.DataGenerationInput;
import io.jimflow.exampledata.DataGenerationResult;
import io.jimflow.exampledata.DataGenerationWorkflow;
import io.jimflow.maintenance.ClearConnectedSystemWorkflow;
import io.jimflow.maintenance.DeleteConnectedSystemWorkflow;
import io.jimflow.maintenance.HousekeepingInput;
import io.jimflow.maintenance.HousekeepingWorkflow;
import io.jimflow.maintenance.MaintenanceActivities.MvoDeletionResult;
import io.jimflow.maintenance.SystemMaintenanceInput;
import io.jimflow.maintenance.SystemMaintenanceResult;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import java.util.UUID;

/**
 * Starts jimflow's maintenance tasks as workflows on the maintenance task queue: a housekeeping
 * cycle, clearing or deleting a connected system. One clear or delete per connected system runs at
 * a time (they share the workflow id {@code jimflow-system-<id>}).
 */
public final class MaintenanceClient {

  private final WorkflowClient workflows;

  public MaintenanceClient(WorkflowClient workflows) {
    this.workflows = workflows;
  }

  /** Starts one housekeeping cycle now and returns its workflow id. */
  public String startHousekeeping(Initiator initiator) {
    String workflowId =
        "jimflow-housekeeping/manual/" + UUID.randomUUID().toString().substring(0, 8);
    WorkflowStub stub =
        workflows.newUntypedWorkflowStub(
            HousekeepingWorkflow.TYPE,
            options(workflowId, "Housekeeping, run by " + who(initiator)));
    stub.start(new HousekeepingInput(initiator, null));
    return workflowId;
  }

  /**
   * Starts clearing a connected system's objects.
   *
   * @throws ExecutionAlreadyRunningException while a clear or delete of the system is under way
   */
  public String startClear(String connectedSystem, boolean deleteHistory, Initiator initiator) {
    return startSystemTask(
        ClearConnectedSystemWorkflow.TYPE,
        connectedSystem,
        new SystemMaintenanceInput(connectedSystem, deleteHistory, initiator),
        "Clear connected system "
            + connectedSystem
            + (deleteHistory ? " with its history" : "")
            + ", by "
            + who(initiator));
  }

  /**
   * Starts deleting a connected system.
   *
   * @throws ExecutionAlreadyRunningException while a clear or delete of the system is under way
   */
  public String startDelete(String connectedSystem, Initiator initiator) {
    return startSystemTask(
        DeleteConnectedSystemWorkflow.TYPE,
        connectedSystem,
        new SystemMaintenanceInput(connectedSystem, false, initiator),
        "Delete connected system " + connectedSystem + ", by " + who(initiator));
  }

  /**
   * Starts generating example data on a worker; its progress shows as the activity's heartbeat
   * details in the Temporal UI.
   *
   * @param outFile relative to the worker's jimflow home unless absolute; the worker writes only
   *     below its data directory and fails the workflow otherwise
   * @param seed null for a random one
   */
  public String startDataGeneration(int people, String outFile, Long seed, Initiator initiator) {
    String workflowId = "jimflow-data-generate/" + UUID.randomUUID().toString().substring(0, 8);
    WorkflowStub stub =
        workflows.newUntypedWorkflowStub(
            DataGenerationWorkflow.TYPE,
            options(
                workflowId,
                "Generate " + people + " people into " + outFile + ", by " + who(initiator)));
    stub.start(new DataGenerationInput(people, outFile, seed, initiator));
    return workflowId;
  }

  /** Waits for example data generation. */
  public DataGenerationResult awaitDataGeneration(String workflowId) {
    return await(workflowId, DataGenerationResult.class);
  }

  /** Waits for a housekeeping cycle. */
  public MvoDeletionResult awaitHousekeeping(String workflowId) {
    return await(workflowId, MvoDeletionResult.class);
  }

  /** Waits for a connected-system task. */
  public SystemMaintenanceResult awaitSystemTask(String workflowId) {
    return await(workflowId, SystemMaintenanceResult.class);
  }

  private String startSystemTask(
      String type, String connectedSystem, SystemMaintenanceInput input, String summary) {
    if (connectedSystem == null || connectedSystem.isBlank()) {
      throw new IllegalArgumentException("a connected system id is needed");
    }
    String workflowId = ClearConnectedSystemWorkflow.workflowId(connectedSystem);
    WorkflowOptions options =
        WorkflowOptions.newBuilder(options(workflowId, summary))
            .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_FAIL)
            .build();
    try {
      workflows.newUntypedWorkflowStub(type, options).start(input);
    } catch (WorkflowExecutionAlreadyStarted e) {
      throw new ExecutionAlreadyRunningException(
          "maintenance of connected system " + connectedSystem,
          workflowId,
          "a clear or delete of it is still running");
    }
    return workflowId;
  }

  private <T> T await(String workflowId, Class<T> type) {
    try {
      return workflows.newUntypedWorkflowStub(workflowId).getResult(type);
    } catch (WorkflowFailedException e) {
      Throwable cause = e.getCause();
      if (cause instanceof ActivityFailure activity && activity.getCause() != null) {
        cause = activity.getCause(); // the activity's own reason, without the wrapper's
      }
      String message =
          cause instanceof ApplicationFailure a ? a.getOriginalMessage() : String.valueOf(cause);
      throw new MaintenanceFailedException(workflowId, message);
    }
  }

  private static WorkflowOptions options(String workflowId, String summary) {
    return WorkflowOptions.newBuilder()
        .setWorkflowId(workflowId)
        .setTaskQueue(TaskQueues.MAINTENANCE)
        .setStaticSummary(summary)
        .build();
  }

  private static String who(Initiator initiator) {
    return initiator == null ? "jimflow" : initiator.type() + " " + initiator.name();
  }

  /** A maintenance workflow ended Failed; the message says why. */
  public static final class MaintenanceFailedException extends RuntimeException {
    private final String workflowId;

    public MaintenanceFailedException(String workflowId, String message) {
      super(message);
      this.workflowId = workflowId;
    }

    public String workflowId() {
      return workflowId;
    }
  }
}
