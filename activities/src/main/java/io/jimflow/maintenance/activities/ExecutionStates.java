package io.jimflow.maintenance.activities;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jimflow.common.JimflowSearchAttributes;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowNotFoundException;
import java.util.Optional;

/** Where the sweeper learns how Temporal sees an execution. */
@FunctionalInterface
public interface ExecutionStates {

  /**
   * The state in Temporal of the workflow id's run {@code runId} (null: its latest run); empty when
   * Temporal does not know it (never started there, or deleted by its retention).
   *
   * @throws RuntimeException when Temporal cannot be asked (the sweep then fails and is retried)
   */
  Optional<ExecutionState> find(String workflowId, String runId);

  /**
   * @param jimflowStatus the execution's {@code JimflowStatus} search attribute; null if unset
   */
  record ExecutionState(WorkflowExecutionStatus status, String jimflowStatus) {}

  /** Asks Temporal through the client. */
  static ExecutionStates of(WorkflowClient client) {
    return (workflowId, runId) -> {
      try {
        WorkflowExecutionDescription description =
            client
                .newUntypedWorkflowStub(workflowId, Optional.ofNullable(runId), Optional.empty())
                .describe();
        String jimflowStatus =
            description.getTypedSearchAttributes().get(JimflowSearchAttributes.STATUS);
        return Optional.of(new ExecutionState(description.getStatus(), jimflowStatus));
      } catch (WorkflowNotFoundException e) {
        return Optional.empty();
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
          return Optional.empty();
        }
        throw e;
      }
    };
  }
}
