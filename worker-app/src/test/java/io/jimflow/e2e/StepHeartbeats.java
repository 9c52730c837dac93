package io.jimflow.e2e;

import io.jimflow.schedule.StepHeartbeat;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.workflow.v1.PendingActivityInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.common.converter.DefaultDataConverter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** What the running steps of an execution report in their heartbeats, as the server has them. */
final class StepHeartbeats {

  private StepHeartbeats() {}

  /**
   * The steps of the execution that run now (or wait for their next attempt), as the server has
   * them.
   */
  static List<PendingActivityInfo> pending(WorkflowClient client, String workflowId) {
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

  /** The most any running step's last heartbeat says it has processed (0 before the first). */
  static long processed(WorkflowClient client, String workflowId) {
    return pending(client, workflowId).stream()
        .filter(PendingActivityInfo::hasHeartbeatDetails)
        .mapToLong(
            a ->
                DefaultDataConverter.STANDARD_INSTANCE
                    .fromPayloads(
                        0,
                        Optional.of(a.getHeartbeatDetails()),
                        StepHeartbeat.class,
                        StepHeartbeat.class)
                    .processed())
        .max()
        .orElse(0);
  }

  /** Waits until a running step has heartbeated at least {@code atLeast} processed units. */
  static void awaitProcessed(
      WorkflowClient client, String workflowId, long atLeast, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (processed(client, workflowId) >= atLeast) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError(workflowId + ": no heartbeat reached " + atLeast + " in " + timeout);
  }
}
