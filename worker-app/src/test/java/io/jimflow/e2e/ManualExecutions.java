package io.jimflow.e2e;

import io.jimflow.common.TaskQueues;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;

/** Executions of a schedule definition that a test starts itself, as a manual run would. */
public final class ManualExecutions {

  /** Who the end-to-end tests start their executions as. */
  public static final Initiator TESTER = new Initiator(InitiatorType.User, "e2e", "E2E test");

  private ManualExecutions() {}

  /** A stub for a new execution with {@code workflowId} on the schedules task queue. */
  public static ScheduleExecutionWorkflow newExecution(WorkflowClient client, String workflowId) {
    return client.newWorkflowStub(
        ScheduleExecutionWorkflow.class,
        WorkflowOptions.newBuilder()
            .setWorkflowId(workflowId)
            .setTaskQueue(TaskQueues.SCHEDULES)
            .build());
  }

  /** What a manual run of {@code definition} by {@code initiator} passes to the workflow. */
  public static ScheduleExecutionInput input(ScheduleDefinition definition, Initiator initiator) {
    return new ScheduleExecutionInput(definition, initiator, TriggerKind.Manual, null);
  }

  /** Starts {@code definition} as {@code workflowId} without waiting for it to end. */
  public static ScheduleExecutionWorkflow start(
      WorkflowClient client,
      String workflowId,
      ScheduleDefinition definition,
      Initiator initiator) {
    ScheduleExecutionWorkflow execution = newExecution(client, workflowId);
    WorkflowClient.start(execution::run, input(definition, initiator));
    return execution;
  }
}
