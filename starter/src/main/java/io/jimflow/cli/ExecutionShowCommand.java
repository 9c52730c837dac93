package io.jimflow.cli;

import io.jimflow.client.JimflowClient;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.StepOutcome;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jimflow executions show ID [--json]}: an execution's status and every step's outcome. */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = "Show an execution: its status and each step's status, attempts and message.")
public class ExecutionShowCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "WORKFLOW-ID")
  String workflowId;

  @Option(names = "--json", description = "Print one JSON document.")
  boolean json;

  public ExecutionShowCommand(ClientFactory clients) {
    super(clients);
  }

  @Override
  int run(JimflowClient client) {
    ExecutionResult execution = client.execution(workflowId);
    if (json) {
      Map<String, Object> document = new LinkedHashMap<>();
      document.put("workflowId", workflowId);
      document.put("scheduleId", execution.scheduleId());
      document.put("scheduleName", execution.scheduleName());
      document.put("status", execution.status());
      document.put("message", execution.message());
      document.put("startedAt", execution.startedAt());
      document.put("endedAt", execution.endedAt());
      document.put("steps", execution.steps());
      out().println(Json.write(document));
      return JimflowCli.OK;
    }
    out().println("Execution " + workflowId);
    out()
        .println(
            "  Schedule: "
                + execution.scheduleId()
                + (execution.scheduleName() == null ? "" : " (" + execution.scheduleName() + ")"));
    out().println("  Status:   " + execution.status());
    if (execution.message() != null && !execution.message().isBlank()) {
      out().println("  Message:  " + execution.message());
    }
    out().println("  Started:  " + (execution.startedAt() == null ? "-" : execution.startedAt()));
    out().println("  Ended:    " + (execution.endedAt() == null ? "-" : execution.endedAt()));
    out().println();
    Table table = new Table("INDEX", "STEP", "STATUS", "ATTEMPTS", "MESSAGE");
    for (StepOutcome step : execution.steps()) {
      table.row(
          step.index(), step.name(), step.status(), step.attempts(), firstLine(step.message()));
    }
    table.print(out());
    return JimflowCli.OK;
  }

  private static String firstLine(String message) {
    if (message == null || message.isBlank()) {
      return null;
    }
    String trimmed = message.strip();
    int newline = trimmed.indexOf('\n');
    return newline < 0 ? trimmed : trimmed.substring(0, newline) + " …";
  }
}
