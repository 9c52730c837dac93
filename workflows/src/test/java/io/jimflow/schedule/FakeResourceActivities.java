package io.jimflow.schedule;

import io.jimflow.resource.ResourceActivities;
import io.jimflow.resource.ResourceQuery;
import io.jimflow.resource.ResourceRequest;
import io.jimflow.resource.Resources;
import io.jimflow.resource.StepResources;
import io.temporal.activity.Activity;
import java.util.List;

/**
 * Resource activities without a data plane: a run profile touches its connected system, and one
 * whose name says "Sync" also the metaverse. Claims go to real lock workflows.
 */
final class FakeResourceActivities implements ResourceActivities {

  @Override
  public StepResources resourcesOf(ResourceQuery query) {
    return new StepResources(
        query.runProfile().contains("Sync")
            ? List.of(query.connectedSystem(), Resources.METAVERSE)
            : List.of(query.connectedSystem()));
  }

  @Override
  public void request(ResourceRequest request) {
    Resources.deliver(Activity.getExecutionContext().getWorkflowClient(), request);
  }
}
