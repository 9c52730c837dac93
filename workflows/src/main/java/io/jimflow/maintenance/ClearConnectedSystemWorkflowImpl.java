package io.jimflow.maintenance;

import io.jimflow.maintenance.MaintenanceActivities.ClearSystemRequest;
import java.util.Map;

/** See {@link ClearConnectedSystemWorkflow}. */
public class ClearConnectedSystemWorkflowImpl extends SystemWorkflow
    implements ClearConnectedSystemWorkflow {

  public ClearConnectedSystemWorkflowImpl() {
    super(MaintenanceKind.ClearConnectedSystem, SystemOperation.Clearing, false);
  }

  @Override
  void work(SystemMaintenanceInput input, String runRecordId, Map<String, Long> totals) {
    totals.putAll(
        activities.clearConnectedSystem(
            new ClearSystemRequest(input.connectedSystem(), input.deleteHistory(), runRecordId)));
  }
}
