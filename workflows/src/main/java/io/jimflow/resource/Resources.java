package io.jimflow.resource;

import io.jimflow.common.TaskQueues;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowQueryException;
import io.temporal.client.WorkflowStub;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

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

  /**
   * Whether the run that made {@code claim} is open and still claims it (see {@link
   * ResourceActivities#stillClaims}). A run that does not answer jimflow's claims query (a workflow
   * named as holder by a forged claim) does not claim it; a run that cannot be asked right now (no
   * worker answers) throws, so the activity is retried.
   */
  public static boolean stillClaims(WorkflowClient client, ResourceClaim claim) {
    if (claim.holderRunId() == null || claim.holderRunId().isBlank()) {
      throw new IllegalArgumentException("claim " + claim.claimId() + " names no run");
    }
    try {
      java.util.UUID.fromString(claim.holderRunId());
    } catch (IllegalArgumentException notARunId) {
      return false; // Temporal's run ids are UUIDs: no run of that id exists
    }
    WorkflowExecution run =
        WorkflowExecution.newBuilder()
            .setWorkflowId(claim.holderId())
            .setRunId(claim.holderRunId())
            .build();
    WorkflowStub holder = client.newUntypedWorkflowStub(run, Optional.empty());
    try {
      if (holder.describe().getStatus()
          != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
        return false;
      }
    } catch (WorkflowNotFoundException deletedOrNeverStarted) {
      return false;
    }
    List<?> claims;
    try {
      claims = holder.query(ResourceClaimant.CLAIMS_QUERY, List.class);
    } catch (WorkflowNotFoundException closedMeanwhile) {
      return false;
    } catch (WorkflowQueryException notAClaimant) {
      return false;
    }
    return claims != null && claims.contains(claim.claimId());
  }

  private Resources() {}
}
