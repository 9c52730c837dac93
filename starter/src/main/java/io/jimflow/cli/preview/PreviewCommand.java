package io.jimflow.cli.preview;

import io.jimflow.cli.output.Json;
import io.jimflow.cli.output.JsonOutput;
import io.jimflow.cli.output.Table;
import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import io.jimflow.client.NotFoundException;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.SchedulePreview;
import io.jimflow.schedule.SchedulePreview.SystemPreview;
import io.jimflow.schedule.file.ScheduleDefinitions;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jimflow preview SCHEDULE-ID [-f FILE] [--json]}. */
@Command(
    name = "preview",
    description = {
      "Run a schedule's imports and synchronisations in preview mode and print, per connected",
      "system, what they would add, update and delete and which thresholds would hold a run.",
      "Nothing is sent to any target and nothing changes in the store."
    })
public class PreviewCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "SCHEDULE-ID")
  public String scheduleId;

  @Option(
      names = {"-f", "--file"},
      paramLabel = "FILE",
      description = "Take the definition from this schedules file.")
  public Path file;

  @Mixin public JsonOutput json;

  private ScheduleDefinition fromFile;

  @Override
  public void checkInput() {
    if (file != null) {
      fromFile =
          ScheduleDefinitions.load(file).stream()
              .filter(d -> d.id().equals(scheduleId))
              .findFirst()
              .orElseThrow(
                  () -> new NotFoundException("schedule " + scheduleId + " is not in " + file));
    }
  }

  @Override
  public int run(JimflowClient client) {
    ScheduleDefinition definition =
        fromFile != null ? fromFile : client.schedules().deployedDefinition(scheduleId);
    String user = System.getProperty("user.name", "unknown");
    SchedulePreview preview =
        client.executions().preview(definition, new Initiator(InitiatorType.User, user, user));
    if (json.on()) {
      out().println(Json.write(preview));
      return ExitCodes.OK;
    }
    out().println("Preview of " + scheduleId + " (nothing was changed):");
    preview
        .steps()
        .forEach(
            s ->
                out()
                    .println(
                        "  "
                            + s.name()
                            + ": "
                            + s.status()
                            + (s.message() == null ? "" : " (" + s.message() + ")")));
    if (!preview.skipped().isEmpty()) {
      out().println("  not run in a preview: " + String.join(", ", preview.skipped()));
    }
    Table table =
        new Table(
            "SYSTEM", "IMPORT ADDS", "UPDATES", "DELETES", "EXPORT ADDS", "UPDATES", "DELETES");
    for (SystemPreview s : preview.systems()) {
      table.row(
          s.system(),
          s.imported().adds(),
          s.imported().updates(),
          s.imported().deletes(),
          s.exports().adds(),
          s.exports().updates(),
          s.exports().deletes());
    }
    table.print(out());
    for (SystemPreview s : preview.systems()) {
      s.holds().forEach(h -> out().println("Would hold: " + h));
      if (!s.importSamples().isEmpty()) {
        out().println(s.system() + " imports, e.g.:");
        s.importSamples().forEach(sample -> out().println("  " + sample.describe()));
      }
      if (!s.samples().isEmpty()) {
        out().println(s.system() + " exports, e.g.:");
        s.samples().forEach(sample -> out().println("  " + sample.describe()));
      } else if (!s.sample().isEmpty()) {
        out().println(s.system() + " e.g.: " + String.join(", ", s.sample()));
      }
    }
    return ExitCodes.OK;
  }
}
