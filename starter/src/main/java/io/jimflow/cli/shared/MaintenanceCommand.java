package io.jimflow.cli.shared;

import io.jimflow.cli.output.Json;
import io.jimflow.cli.output.JsonOutput;
import io.jimflow.client.JimflowClient;
import io.jimflow.client.MaintenanceClient;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A command that starts a maintenance workflow, waits for it unless told not to, and prints what it
 * did; a failed task ({@link io.jimflow.client.MaintenanceClient.MaintenanceFailedException}) exits
 * 1 with its reason.
 */
public abstract class MaintenanceCommand extends ClientCommand {

  @Option(names = "--no-wait", description = "Print the workflow id and return without waiting.")
  public boolean noWait;

  @Mixin public JsonOutput json;

  @Override
  public final int run(JimflowClient client) {
    MaintenanceClient maintenance = client.maintenance();
    String user = System.getProperty("user.name", "unknown");
    String workflowId = start(maintenance, new Initiator(InitiatorType.User, user, user));
    if (noWait) {
      out()
          .println(
              json.on()
                  ? Json.write(Map.of("workflowId", workflowId))
                  : "Started " + workflowId + ".");
      return ExitCodes.OK;
    }
    Map<String, Object> result = await(maintenance, workflowId);
    if (json.on()) {
      Map<String, Object> document = new LinkedHashMap<>();
      document.put("workflowId", workflowId);
      document.putAll(result);
      out().println(Json.write(document));
    } else {
      out().println(done() + " (" + workflowId + ")");
      result.forEach((key, value) -> out().println("  " + key + ": " + value));
    }
    return ExitCodes.OK;
  }

  public abstract String start(MaintenanceClient maintenance, Initiator initiator);

  public abstract Map<String, Object> await(MaintenanceClient maintenance, String workflowId);

  /** The first line printed when the task completed. */
  public abstract String done();
}
