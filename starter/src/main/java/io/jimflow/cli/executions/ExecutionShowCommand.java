package io.jimflow.cli.executions;

import io.jimflow.cli.output.Json;
import io.jimflow.cli.output.JsonOutput;
import io.jimflow.cli.output.StepOrder;
import io.jimflow.cli.output.Table;
import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.ExecutionSummary;
import io.jimflow.client.JimflowClient;
import io.jimflow.client.NotFoundException;
import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepRecord;
import io.jimflow.schedule.StepStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code jimflow executions show ID [--json]}: an execution's status and every step's outcome. */
@Command(
    name = "show",
    description =
        "Show an execution: its status and each step's status, attempts and message; from the"
            + " store's execution history once Temporal no longer has it.")
public class ExecutionShowCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "WORKFLOW-ID")
  public String workflowId;

  @Mixin public JsonOutput json;

  /**
   * An execution as shown: its JSON document, the heading of the text view, extra lines under the
   * heading, the step table and a note below it (null when none).
   */
  private record Shown(
      Map<String, Object> document,
      String title,
      Map<String, Object> extraLines,
      Table steps,
      String note) {}

  @Override
  public int run(JimflowClient client) {
    Shown shown;
    try {
      shown = fromTemporal(client.executions().show(workflowId));
    } catch (NotFoundException notInTemporal) {
      shown = fromStore(client.executions().stored(workflowId));
    }
    if (json.on()) {
      out().println(Json.write(shown.document()));
      return ExitCodes.OK;
    }
    printHeader(shown);
    shown.steps().print(out());
    if (shown.note() != null) {
      out().println(shown.note());
    }
    return ExitCodes.OK;
  }

  private Shown fromTemporal(ExecutionResult execution) {
    List<StepOutcome> steps =
        StepOrder.failuresFirst(execution.steps(), StepOutcome::index, StepOutcome::status);
    Map<String, Object> document =
        document(
            execution.scheduleId(),
            execution.scheduleName(),
            execution.status(),
            execution.message(),
            execution.startedAt(),
            execution.endedAt(),
            steps,
            null);
    Table table = new Table("INDEX", "STEP", "STATUS", "ATTEMPTS", "MESSAGE");
    for (StepOutcome step : steps) {
      table.row(
          step.index(), step.name(), step.status(), step.attempts(), firstLine(step.message()));
    }
    return new Shown(document, "Execution " + workflowId, Map.of(), table, held(steps));
  }

  /** An execution Temporal no longer has, from the store's execution history. */
  private Shown fromStore(ExecutionRecord execution) {
    List<StepRecord> steps =
        StepOrder.failuresFirst(execution.steps(), StepRecord::index, StepRecord::status);
    Map<String, Object> document =
        document(
            execution.scheduleId(),
            execution.scheduleName(),
            execution.status(),
            execution.message(),
            execution.startedAt(),
            execution.endedAt(),
            steps,
            execution);
    Table table = new Table("INDEX", "STEP", "STATUS", "ATTEMPTS", "RUN RECORD", "MESSAGE");
    for (StepRecord step : steps) {
      table.row(
          step.index(),
          step.name(),
          step.status(),
          step.attempts(),
          step.runRecordId(),
          firstLine(step.message()));
    }
    int unrecorded = execution.stepCount() - execution.steps().size();
    Map<String, Object> extraLines = new LinkedHashMap<>();
    String initiator = initiatorLine(execution);
    if (initiator != null) {
      extraLines.put("Initiator", initiator);
    }
    return new Shown(
        document,
        "Execution " + workflowId + " (from the store: Temporal no longer has it)",
        extraLines,
        table,
        unrecorded <= 0
            ? null
            : unrecorded
                + " of its "
                + execution.stepCount()
                + " step(s) have no record: they had not ended when it stopped recording.");
  }

  /**
   * The JSON document: the same fields in the same order whichever source answered; an execution
   * read from the store ({@code stored} not null) says so and adds its trigger and initiator.
   */
  private Map<String, Object> document(
      String scheduleId,
      String scheduleName,
      ExecutionStatus status,
      String message,
      Instant startedAt,
      Instant endedAt,
      List<?> steps,
      ExecutionRecord stored) {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("workflowId", workflowId);
    if (stored != null) {
      document.put("source", ExecutionSummary.STORE);
    }
    document.put("scheduleId", scheduleId);
    document.put("scheduleName", scheduleName);
    document.put("status", status);
    document.put("message", message);
    if (stored != null) {
      document.put("trigger", stored.trigger());
      document.put("initiator", stored.initiator());
    }
    document.put("startedAt", startedAt);
    document.put("endedAt", endedAt);
    document.put("steps", steps);
    return document;
  }

  /**
   * The lines above the step table: schedule, status, message (when there is one), the extra lines,
   * start and end, with the values aligned.
   */
  private void printHeader(Shown shown) {
    Map<String, Object> document = shown.document();
    Map<String, Object> lines = new LinkedHashMap<>();
    Object name = document.get("scheduleName");
    lines.put("Schedule", document.get("scheduleId") + (name == null ? "" : " (" + name + ")"));
    lines.put("Status", document.get("status"));
    Object message = document.get("message");
    if (message != null && !message.toString().isBlank()) {
      lines.put("Message", message);
    }
    lines.putAll(shown.extraLines());
    lines.put("Started", document.get("startedAt") == null ? "-" : document.get("startedAt"));
    lines.put("Ended", document.get("endedAt") == null ? "-" : document.get("endedAt"));
    int width = lines.keySet().stream().mapToInt(String::length).max().orElse(0) + 1;
    out().println(shown.title());
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

  /**
   * Below the table, each step waiting in AwaitingApproval whose message has more than the line the
   * table shows: what holds it, how to decide, and a few of the objects it would change with their
   * values before and after.
   */
  private static String held(List<StepOutcome> steps) {
    StringBuilder text = new StringBuilder();
    for (StepOutcome step : steps) {
      if (step.status() == StepStatus.AwaitingApproval
          && step.message() != null
          && step.message().strip().contains("\n")) {
        text.append(text.isEmpty() ? "" : "\n")
            .append("Step '")
            .append(step.name())
            .append("' awaits approval:\n  ")
            .append(step.message().strip());
      }
    }
    return text.isEmpty() ? null : text.toString();
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
