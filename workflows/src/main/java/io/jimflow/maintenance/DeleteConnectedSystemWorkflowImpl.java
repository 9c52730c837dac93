package io.jimflow.maintenance;

import io.jimflow.maintenance.MaintenanceActivities.SystemRunRequest;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import java.util.Map;

/** See {@link DeleteConnectedSystemWorkflow}. */
public class DeleteConnectedSystemWorkflowImpl extends SystemWorkflow
    implements DeleteConnectedSystemWorkflow {

  public DeleteConnectedSystemWorkflowImpl() {
    super(MaintenanceKind.DeleteConnectedSystem, SystemOperation.Deleting, true);
  }

  @Override
  void work(SystemMaintenanceInput input, String runRecordId, Map<String, Long> totals) {
    SystemRunRequest request =
        new SystemRunRequest(
            input.connectedSystem(), runRecordId, Initiator.orSystem(input.initiator()));
    // Orphans first: once the system is gone nothing tells which MVOs it held.
    totals.putAll(activities.markOrphanedMvos(request));
    totals.putAll(activities.deleteConnectedSystem(request));
  }
}
