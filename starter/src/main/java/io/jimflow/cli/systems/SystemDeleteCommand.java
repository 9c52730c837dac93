package io.jimflow.cli.systems;

import io.jimflow.cli.shared.MaintenanceCommand;
import io.jimflow.client.MaintenanceClient;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code jimflow systems delete ID}. */
@Command(
    name = "delete",
    description = {
      "Delete a connected system: first mark the metaverse objects it alone kept alive for deletion",
      "(deletion rules and grace period), then delete its objects, pending exports and run profiles.",
      "On failure the system is Active again and the command can be repeated (exit 1).",
      "Remove it from config/connected-systems.yaml too, or its next run brings it back empty."
    })
public class SystemDeleteCommand extends MaintenanceCommand {

  @Parameters(index = "0", paramLabel = "ID", description = "The connected system's id.")
  public String system;

  @Override
  public String start(MaintenanceClient maintenance, Initiator initiator) {
    return maintenance.startDelete(system, initiator);
  }

  @Override
  public Map<String, Object> await(MaintenanceClient maintenance, String workflowId) {
    return SystemClearCommand.describe(maintenance.awaitSystemTask(workflowId));
  }

  @Override
  public String done() {
    return "Deleted connected system " + system + ".";
  }
}
