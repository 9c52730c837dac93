package io.jimflow.resource.activities;

import io.jimflow.resource.ResourceActivities;
import io.jimflow.resource.ResourceClaim;
import io.jimflow.resource.ResourceQuery;
import io.jimflow.resource.ResourceRequest;
import io.jimflow.resource.Resources;
import io.jimflow.resource.StepResources;
import io.jimflow.schedule.steps.RunProfileExecutor;
import io.temporal.activity.Activity;

/**
 * Resolves a step's resources from the worker's data plane and delivers claims to resource locks
 * through the worker's own client.
 */
public class ResourceActivitiesImpl implements ResourceActivities {

  private final RunProfileExecutor runProfiles;

  public ResourceActivitiesImpl(RunProfileExecutor runProfiles) {
    this.runProfiles = runProfiles;
  }

  @Override
  public StepResources resourcesOf(ResourceQuery query) {
    return new StepResources(runProfiles.resources(query.connectedSystem(), query.runProfile()));
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
