package io.jimflow.cli.schedules;

import io.jimflow.cli.output.Json;
import io.jimflow.cli.output.JsonOutput;
import io.jimflow.cli.output.Table;
import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import io.jimflow.client.ScheduleSummary;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code jimflow schedules list}: every schedule with its trigger, state, last and next runs. */
@Command(
    name = "list",
    description = {
      "List schedules: scope, trigger, time zone, paused, the last execution (whatever started"
          + " it) with its status, end and message, next runs, and runs Temporal skipped"
          + " (overlap) or missed (catch-up window).",
      "Right after an apply it shows what the apply did."
    })
public class ScheduleListCommand extends ClientCommand {

  @Mixin public JsonOutput json;

  @Option(
      names = "--scope",
      paramLabel = "SCOPE",
      description = "Only the schedules of this scope (a schedules file's 'scope:').")
  public String scope;

  @Override
  public int run(JimflowClient client) {
    List<ScheduleSummary> schedules =
        client.schedules().list().stream()
            .filter(s -> scope == null || scope.equals(s.scope()))
            .toList();
    if (json.on()) {
      out().println(Json.write(java.util.Map.of("schedules", schedules)));
      return ExitCodes.OK;
    }
    if (schedules.isEmpty() && scope != null) {
      out().println("No schedules in scope " + scope + ".");
      return ExitCodes.OK;
    }
    if (schedules.isEmpty()) {
      out()
          .println(
              "No schedules. Deploy some with: jimflow schedules apply -f config/schedules.yaml");
      return ExitCodes.OK;
    }
    Table table =
        new Table(
            "ID",
            "SCOPE",
            "TRIGGER",
            "TIME ZONE",
            "PAUSED",
            "LAST RUN",
            "STATUS",
            "ENDED",
            "NEXT RUNS",
            "SKIPPED/MISSED",
            "MESSAGE");
    for (ScheduleSummary s : schedules) {
      table.row(
          s.builtIn() ? s.id() + " (built-in)" : s.id(),
          s.scope(),
          s.trigger(),
          s.timeZone(),
          s.paused() ? "yes" : "no",
          s.lastRunAt(),
          s.lastRunStatus(),
          s.lastRunEndedAt(),
          s.nextRuns().isEmpty()
              ? null
              : s.nextRuns().stream()
                  .limit(2)
                  .map(Instant::toString)
                  .collect(Collectors.joining(", ")),
          s.skippedRuns() + "/" + s.missedRuns(),
          firstLine(s.lastRunMessage()));
    }
    table.print(out());
    return ExitCodes.OK;
  }

  /** The message's first line, cut to a table cell's width ({@code --json} has all of it). */
  public static String firstLine(String message) {
    if (message == null || message.isBlank()) {
      return null;
    }
    String line = message.strip().lines().findFirst().orElse("");
    return line.length() <= MESSAGE_WIDTH ? line : line.substring(0, MESSAGE_WIDTH - 1) + "…";
  }

  private static final int MESSAGE_WIDTH = 80;
}
