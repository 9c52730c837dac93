package io.jimflow.workitem.activities;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jimflow.workitem.PredecessorQuery;
import io.jimflow.workitem.WorkItemManagerActivities;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;

/** Looks up other work items for the work manager through the Temporal client. */
public final class WorkItemManagerActivitiesImpl implements WorkItemManagerActivities {

  private final WorkflowClient client;

  public WorkItemManagerActivitiesImpl(WorkflowClient client) {
    this.client = client;
  }

  @Override
  public boolean predecessorEnded(PredecessorQuery query) {
    try {
      WorkflowExecutionStatus status =
          client
              .getWorkflowServiceStubs()
              .blockingStub()
              .describeWorkflowExecution(
                  DescribeWorkflowExecutionRequest.newBuilder()
                      .setNamespace(client.getOptions().getNamespace())
                      .setExecution(WorkflowExecution.newBuilder().setWorkflowId(query.guid()))
                      .build())
              .getWorkflowExecutionInfo()
              .getStatus();
      // The latest run is described: a restart (continue-as-new) shows as a running successor run.
      return status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
          && status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW;
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return true;
      }
      throw e;
    }
  }
}
