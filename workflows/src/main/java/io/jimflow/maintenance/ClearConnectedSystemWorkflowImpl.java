package io.jimflow.maintenance;

import io.jimflow.maintenance.MaintenanceActivities.ClearSystemRequest;
import io.jimflow.resource.ResourceLocks;
import io.jimflow.resource.ResourceNotice;
import io.temporal.workflow.Workflow;

/** See {@link ClearConnectedSystemWorkflow}. */
public class ClearConnectedSystemWorkflowImpl implements ClearConnectedSystemWorkflow {

  private final MaintenanceActivities activities =
      Workflow.newActivityStub(MaintenanceActivities.class, MaintenanceOptions.LONG);
  private final ResourceLocks locks = new ResourceLocks();

  @Override
  public void resourceNotice(ResourceNotice notice) {
    locks.onNotice(notice);
  }

  @Override
  public SystemMaintenanceResult run(SystemMaintenanceInput input) {
    return new SystemTask()
        .run(
            MaintenanceKind.ClearConnectedSystem,
            SystemOperation.Clearing,
            input,
            locks,
            false,
            (runRecordId, totals) ->
                totals.putAll(
                    activities.clearConnectedSystem(
                        new ClearSystemRequest(
                            input.connectedSystem(), input.deleteHistory(), runRecordId))));
  }
}
