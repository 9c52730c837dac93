package io.jimflow.cli.systems;

import io.jimflow.cli.shared.MaintenanceCommand;
import io.jimflow.client.MaintenanceClient;
import io.jimflow.maintenance.SystemMaintenanceResult;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jimflow systems clear ID [--delete-history]}. */
@Command(
    name = "clear",
    description = {
      "Delete a connected system's objects and their pending exports; the system stays configured.",
      "Its run profiles refuse to run meanwhile. Exit 1 if the clear failed."
    })
public class SystemClearCommand extends MaintenanceCommand {

  @Parameters(index = "0", paramLabel = "ID", description = "The connected system's id.")
  public String system;

  @Option(
      names = "--delete-history",
      description = "Also delete the change history of its objects.")
  public boolean deleteHistory;

  @Override
  public String start(MaintenanceClient maintenance, Initiator initiator) {
    return maintenance.startClear(system, deleteHistory, initiator);
  }

  @Override
  public Map<String, Object> await(MaintenanceClient maintenance, String workflowId) {
    return describe(maintenance.awaitSystemTask(workflowId));
  }

  @Override
  public String done() {
    return "Cleared connected system " + system + ".";
  }

  public static Map<String, Object> describe(SystemMaintenanceResult result) {
    Map<String, Object> described = new LinkedHashMap<>();
    described.put("runRecord", result.runRecordId());
    described.putAll(result.totals());
    return described;
  }
}
