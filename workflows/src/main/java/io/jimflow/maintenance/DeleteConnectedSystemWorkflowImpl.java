package io.jimflow.maintenance;

import io.jimflow.maintenance.MaintenanceActivities.SystemRunRequest;
import io.jimflow.resource.ResourceLocks;
import io.jimflow.resource.ResourceNotice;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.temporal.workflow.Workflow;

/** See {@link DeleteConnectedSystemWorkflow}. */
public class DeleteConnectedSystemWorkflowImpl implements DeleteConnectedSystemWorkflow {

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
            MaintenanceKind.DeleteConnectedSystem,
            SystemOperation.Deleting,
            input,
            locks,
            true,
            (runRecordId, totals) -> {
              SystemRunRequest request =
                  new SystemRunRequest(
                      input.connectedSystem(), runRecordId, Initiator.orSystem(input.initiator()));
              // Orphans first: once the system is gone nothing tells which MVOs it held.
              totals.putAll(activities.markOrphanedMvos(request));
              totals.putAll(activities.deleteConnectedSystem(request));
            });
  }
}
