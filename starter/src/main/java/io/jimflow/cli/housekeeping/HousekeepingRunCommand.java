package io.jimflow.cli.housekeeping;

import io.jimflow.cli.shared.MaintenanceCommand;
import io.jimflow.client.MaintenanceClient;
import io.jimflow.maintenance.MaintenanceActivities.MvoDeletionResult;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code jimflow housekeeping run}: one cycle now, besides the built-in schedule's. */
@Command(
    name = "run",
    description =
        "Run one housekeeping cycle now and print what it deleted and which stranded records"
            + " it finalized.")
public class HousekeepingRunCommand extends MaintenanceCommand {

  @Override
  public String start(MaintenanceClient maintenance, Initiator initiator) {
    return maintenance.startHousekeeping(initiator);
  }

  @Override
  public Map<String, Object> await(MaintenanceClient maintenance, String workflowId) {
    MvoDeletionResult result = maintenance.awaitHousekeeping(workflowId);
    Map<String, Object> described = new LinkedHashMap<>();
    described.put("runRecord", result.runRecordId());
    described.put("mvosDeleted", result.mvosDeleted());
    described.put("deprovisionExports", result.deprovisionExports());
    described.put("moreDue", result.capReached());
    if (result.swept() != null) {
      // Records whose execution had ended (terminated, timed out, deleted) without ending them.
      described.put("strandedRunRecordsEnded", result.swept().runRecords());
      described.put("strandedMaintenanceRunsEnded", result.swept().maintenanceRuns());
      described.put("strandedExecutionsEnded", result.swept().executions());
      described.put("strandedHoldsReleased", result.swept().releasedHolds());
    }
    return described;
  }

  @Override
  public String done() {
    return "Housekeeping cycle done.";
  }
}
