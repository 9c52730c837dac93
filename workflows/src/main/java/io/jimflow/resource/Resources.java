package io.jimflow.resource;

import io.jimflow.common.TaskQueues;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import java.util.Collection;
import java.util.List;

/**
 * The resources that runs hold exclusively — a connected system by its name, the metaverse — and
 * how a claim on one reaches its lock.
 *
 * <p>Every resource has one {@link ResourceLockWorkflow} with the id {@link #lockWorkflowId}; it is
 * started by the first claim and ends when nobody holds or waits for the resource.
 */
public final class Resources {

  /** The metaverse: every synchronisation writes it. */
  public static final String METAVERSE = "Metaverse";

  /**
   * The {@code Workflow.getVersion} change id under which a workflow takes its resources; one id
   * for every claimant type.
   */
  public static final String EXCLUSION_CHANGE_ID = "resource-exclusion";

  /** The signal a claimant receives its {@link ResourceNotice}s by. */
  public static final String NOTICE_SIGNAL = "resourceNotice";

  private static final String LOCK_PREFIX = "jimflow-resource/";

  /** The id of the workflow that guards {@code resource}. */
  public static String lockWorkflowId(String resource) {
    return LOCK_PREFIX + resource;
  }

  /**
   * The resources without repeats, in the one order every claimant takes them in: two claimants
   * that each wait for what the other holds are impossible when both take theirs in this order.
   */
  public static List<String> inLockOrder(Collection<String> resources) {
    return resources.stream().distinct().sorted().toList();
  }

  /**
   * Delivers a claim to the resource's lock, starting the lock if it is not running. A claim
   * delivered twice counts once.
   */
  public static void deliver(WorkflowClient client, ResourceRequest request) {
    WorkflowStub lock =
        client.newUntypedWorkflowStub(
            ResourceLockWorkflow.TYPE,
            WorkflowOptions.newBuilder()
                .setWorkflowId(lockWorkflowId(request.resource()))
                .setTaskQueue(TaskQueues.SCHEDULES)
                .build());
    lock.signalWithStart(
        ResourceLockWorkflow.CLAIM,
        new Object[] {request.claim()},
        new Object[] {ResourceLockState.free(request.resource())});
  }

  private Resources() {}
}
