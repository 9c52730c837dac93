package io.jimflow.testing;

import io.jimflow.resource.ResourceActivities;
import io.jimflow.resource.ResourceClaim;
import io.jimflow.resource.ResourceQuery;
import io.jimflow.resource.ResourceRequest;
import io.jimflow.resource.Resources;
import io.jimflow.resource.StepResources;
import io.temporal.activity.Activity;
import java.util.List;

/**
 * Resource activities without a data plane: a run profile touches its connected system, and one
 * whose name says "Sync" also the metaverse; a query without a run profile, the system alone.
 * Claims go to real lock workflows (register {@code ResourceLockWorkflowImpl} on the schedules task
 * queue).
 */
public final class FakeResourceActivities implements ResourceActivities {

  @Override
  public StepResources resourcesOf(ResourceQuery query) {
    return new StepResources(
        query.runProfile() != null && query.runProfile().contains("Sync")
            ? List.of(query.connectedSystem(), Resources.METAVERSE)
            : List.of(query.connectedSystem()));
  }

  @Override
  public void request(ResourceRequest request) {
    Resources.deliver(Activity.getExecutionContext().getWorkflowClient(), request);
  }

  @Override
  public boolean stillClaims(ResourceClaim claim) {
    return Resources.stillClaims(Activity.getExecutionContext().getWorkflowClient(), claim);
  }
}
