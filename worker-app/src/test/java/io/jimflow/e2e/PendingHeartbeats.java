package io.jimflow.e2e;

import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.workflow.v1.PendingActivityInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What the running activities of a workflow said in their last heartbeats, as the server holds it:
 * what a worker that takes over would resume from.
 */
final class PendingHeartbeats {

  private PendingHeartbeats() {}

  /** The running activities of {@code workflowId}'s current run (or those awaiting a retry). */
  static List<PendingActivityInfo> activities(WorkflowClient client, String workflowId) {
    return client
        .getWorkflowServiceStubs()
        .blockingStub()
        .describeWorkflowExecution(
            DescribeWorkflowExecutionRequest.newBuilder()
                .setNamespace(client.getOptions().getNamespace())
                .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
                .build())
        .getPendingActivitiesList();
  }

  /**
   * The last heartbeat details of each running activity of {@code workflowId}'s current run, read
   * as {@code type}; activities that have not heartbeated any details yet are left out.
   */
  static <T> List<T> of(WorkflowClient client, String workflowId, Class<T> type) {
    return activities(client, workflowId).stream()
        .filter(PendingActivityInfo::hasHeartbeatDetails)
        .map(
            a ->
                client
                    .getOptions()
                    .getDataConverter()
                    .fromPayloads(0, Optional.of(a.getHeartbeatDetails()), type, type))
        .filter(details -> details != null)
        .toList();
  }

  /**
   * Waits until a running activity of {@code workflowId} has heartbeated details that satisfy
   * {@code condition}; fails naming {@code what} after {@code timeout}.
   */
  static <T> void await(
      WorkflowClient client,
      String workflowId,
      Class<T> type,
      Predicate<T> condition,
      String what,
      Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<T> last = List.of();
    while (System.nanoTime() < deadline) {
      last = of(client, workflowId, type);
      if (last.stream().anyMatch(condition)) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        workflowId
            + ": no heartbeat of a running activity showed "
            + what
            + " within "
            + timeout
            + "; the last: "
            + last);
  }
}
