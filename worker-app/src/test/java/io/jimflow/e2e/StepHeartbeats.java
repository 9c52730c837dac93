package io.jimflow.e2e;

import io.jimflow.schedule.StepHeartbeat;
import io.temporal.api.workflow.v1.PendingActivityInfo;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.util.List;

/** What the running steps of an execution report in their heartbeats, as the server has them. */
final class StepHeartbeats {

  private StepHeartbeats() {}

  /**
   * The steps of the execution that run now (or wait for their next attempt), as the server has
   * them.
   */
  static List<PendingActivityInfo> pending(WorkflowClient client, String workflowId) {
    return PendingHeartbeats.activities(client, workflowId);
  }

  /** The most any running step's last heartbeat says it has processed (0 before the first). */
  static long processed(WorkflowClient client, String workflowId) {
    return PendingHeartbeats.of(client, workflowId, StepHeartbeat.class).stream()
        .mapToLong(StepHeartbeat::processed)
        .max()
        .orElse(0);
  }

  /** Waits until a running step has heartbeated at least {@code atLeast} processed units. */
  static void awaitProcessed(
      WorkflowClient client, String workflowId, long atLeast, Duration timeout)
      throws InterruptedException {
    PendingHeartbeats.await(
        client,
        workflowId,
        StepHeartbeat.class,
        h -> h.processed() >= atLeast,
        atLeast + " processed",
        timeout);
  }
}
