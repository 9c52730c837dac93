package io.jimflow.cli;

import io.jimflow.client.ExecutionSummary;
import io.jimflow.client.JimflowClient;
import io.jimflow.client.NotFoundException;
import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepRecord;
import java.util.Collections;
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
    Map<String, Object> document =
        document(
            execution.scheduleId(),
            execution.scheduleName(),
            execution.status(),
            execution.message());
    document.put("startedAt", execution.startedAt());
    document.put("endedAt", execution.endedAt());
    document.put("steps", execution.steps());
    if (json) {
      out().println(Json.write(document));
      return JimflowCli.OK;
    }
    printHeader("Execution " + workflowId, document, Map.of());
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
    Map<String, Object> document =
        document(
            execution.scheduleId(),
            execution.scheduleName(),
            execution.status(),
            execution.message());
    document.put("trigger", execution.trigger());
    document.put("initiator", execution.initiator());
    document.put("startedAt", execution.startedAt());
    document.put("endedAt", execution.endedAt());
    document.put("steps", execution.steps());
    if (json) {
      Map<String, Object> withSource = new LinkedHashMap<>();
      withSource.put("workflowId", workflowId);
      withSource.put("source", ExecutionSummary.STORE);
      withSource.putAll(document);
      out().println(Json.write(withSource));
      return JimflowCli.OK;
    }
    printHeader(
        "Execution " + workflowId + " (from the store: Temporal no longer has it)",
        document,
        Collections.singletonMap("Initiator", initiatorLine(execution)));
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

  /** The fields both views share, in the order of the JSON document. */
  private Map<String, Object> document(
      String scheduleId, String scheduleName, Object status, String message) {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("workflowId", workflowId);
    document.put("scheduleId", scheduleId);
    document.put("scheduleName", scheduleName);
    document.put("status", status);
    document.put("message", message);
    return document;
  }

  /**
   * The lines above the step table: schedule, status, message (when there is one), {@code extra}
   * lines (when not null), start and end, with the values aligned.
   */
  private void printHeader(String title, Map<String, Object> document, Map<String, String> extra) {
    Map<String, Object> lines = new LinkedHashMap<>();
    Object name = document.get("scheduleName");
    lines.put("Schedule", document.get("scheduleId") + (name == null ? "" : " (" + name + ")"));
    lines.put("Status", document.get("status"));
    Object message = document.get("message");
    if (message != null && !message.toString().isBlank()) {
      lines.put("Message", message);
    }
    extra.forEach(
        (label, value) -> {
          if (value != null) {
            lines.put(label, value);
          }
        });
    lines.put("Started", document.get("startedAt") == null ? "-" : document.get("startedAt"));
    lines.put("Ended", document.get("endedAt") == null ? "-" : document.get("endedAt"));
    int width = lines.keySet().stream().mapToInt(String::length).max().orElse(0) + 1;
    out().println(title);
    lines.forEach((label, value) -> out().printf("  %-" + width + "s %s%n", label + ":", value));
    out().println();
  }

  private static String initiatorLine(ExecutionRecord execution) {
    Initiator initiator = execution.initiator();
    if (initiator == null) {
      return null;
    }
    return initiator.type()
        + " "
        + (initiator.name() == null ? initiator.id() : initiator.name())
        + (execution.trigger() == null ? "" : " (" + execution.trigger() + ")");
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
