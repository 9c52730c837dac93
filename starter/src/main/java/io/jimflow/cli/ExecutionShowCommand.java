package io.jimflow.cli;

import io.jimflow.client.ExecutionSummary;
import io.jimflow.client.JimflowClient;
import io.jimflow.client.NotFoundException;
import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepRecord;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jimflow executions show ID [--json]}: an execution's status and every step's outcome. */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description =
        "Show an execution: its status and each step's status, attempts and message; from the"
            + " store's execution history once Temporal no longer has it.")
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
    ExecutionResult execution;
    try {
      execution = client.execution(workflowId);
    } catch (NotFoundException notInTemporal) {
      return showStored(client.storedExecution(workflowId));
    }
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

  /** An execution Temporal no longer has, from the store's execution history. */
  private int showStored(ExecutionRecord execution) {
    if (json) {
      Map<String, Object> document = new LinkedHashMap<>();
      document.put("workflowId", workflowId);
      document.put("source", ExecutionSummary.STORE);
      document.put("scheduleId", execution.scheduleId());
      document.put("scheduleName", execution.scheduleName());
      document.put("status", execution.status());
      document.put("message", execution.message());
      document.put("trigger", execution.trigger());
      document.put("initiator", execution.initiator());
      document.put("startedAt", execution.startedAt());
      document.put("endedAt", execution.endedAt());
      document.put("steps", execution.steps());
      out().println(Json.write(document));
      return JimflowCli.OK;
    }
    out().println("Execution " + workflowId + " (from the store: Temporal no longer has it)");
    out()
        .println(
            "  Schedule:  "
                + execution.scheduleId()
                + (execution.scheduleName() == null ? "" : " (" + execution.scheduleName() + ")"));
    out().println("  Status:    " + execution.status());
    if (execution.message() != null && !execution.message().isBlank()) {
      out().println("  Message:   " + execution.message());
    }
    if (execution.initiator() != null) {
      Initiator initiator = execution.initiator();
      out()
          .println(
              "  Initiator: "
                  + initiator.type()
                  + " "
                  + (initiator.name() == null ? initiator.id() : initiator.name())
                  + (execution.trigger() == null ? "" : " (" + execution.trigger() + ")"));
    }
    out().println("  Started:   " + (execution.startedAt() == null ? "-" : execution.startedAt()));
    out().println("  Ended:     " + (execution.endedAt() == null ? "-" : execution.endedAt()));
    out().println();
    Table table = new Table("INDEX", "STEP", "STATUS", "ATTEMPTS", "RUN RECORD", "MESSAGE");
    for (StepRecord step : execution.steps()) {
      table.row(
          step.index(),
          step.name(),
          step.status(),
          step.attempts(),
          step.runRecordId(),
          firstLine(step.message()));
    }
    table.print(out());
    if (execution.steps().size() < execution.stepCount()) {
      out()
          .println(
              (execution.stepCount() - execution.steps().size())
                  + " of its "
                  + execution.stepCount()
                  + " step(s) have no record: they had not ended when it stopped recording.");
    }
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
