package io.jimflow.maintenance;

import io.jimflow.maintenance.MaintenanceActivities.ClearSystemRequest;
import io.temporal.workflow.Workflow;

/** See {@link ClearConnectedSystemWorkflow}. */
public class ClearConnectedSystemWorkflowImpl implements ClearConnectedSystemWorkflow {

  private final MaintenanceActivities activities =
      Workflow.newActivityStub(MaintenanceActivities.class, MaintenanceOptions.LONG);

  @Override
  public SystemMaintenanceResult run(SystemMaintenanceInput input) {
    return new SystemTask()
        .run(
            MaintenanceKind.ClearConnectedSystem,
            SystemOperation.Clearing,
            input,
            (runRecordId, totals) ->
                totals.putAll(
                    activities.clearConnectedSystem(
                        new ClearSystemRequest(
                            input.connectedSystem(), input.deleteHistory(), runRecordId))));
  }
}
