package io.jimflow.cli.runs;

import io.jimflow.cli.output.Json;
import io.jimflow.cli.output.JsonOutput;
import io.jimflow.cli.output.Table;
import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import io.jimflow.runrecords.RunItemView;
import io.jimflow.runrecords.RunRecordView;
import io.jimflow.runrecords.RunRecordsAnswer;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jimflow runs show <id> [--json]}: a record's totals and its first items, errors first. */
@Command(
    name = "show",
    description = "Show a run record: status, totals and its first run items, errors first.")
public class RunRecordShowCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "RUN-RECORD-ID")
  public String id;

  @Option(
      names = "--items",
      defaultValue = "10",
      description = "Items to show (default ${DEFAULT-VALUE}).")
  public int items;

  @Mixin public JsonOutput json;

  @Override
  public int run(JimflowClient client) {
    RunRecordsAnswer answer = client.runRecords().show(id, items);
    RunRecordView r = answer.records().get(0);
    if (json.on()) {
      Map<String, Object> document = new LinkedHashMap<>();
      document.put("run", r);
      document.put("items", answer.items());
      out().println(Json.write(document));
      return ExitCodes.OK;
    }
    out().println("Run record " + r.id() + ": " + r.status());
    out().println("  " + r.connectedSystem() + " / " + r.runProfile() + " (" + r.runType() + ")");
    if (r.scheduleId() != null) {
      out()
          .println(
              "  schedule "
                  + r.scheduleId()
                  + ", execution "
                  + r.executionId()
                  + ", step "
                  + r.stepName());
    }
    out().println("  initiated by " + r.initiatorType() + " " + r.initiatorName());
    out()
        .println(
            "  started " + r.startedAt() + ", ended " + (r.endedAt() == null ? "-" : r.endedAt()));
    out()
        .println(
            "  processed "
                + r.objectsProcessed()
                + " of "
                + r.objectsToProcess()
                + ", attempts "
                + r.attempts());
    if (r.message() != null) {
      out().println("  " + r.message());
    }
    out().println("Totals:");
    r.totals().entrySet().stream()
        .filter(e -> e.getValue() != 0)
        .forEach(e -> out().println("  " + e.getKey() + ": " + e.getValue()));
    out()
        .println(
            "Run items ("
                + r.itemCount()
                + " in all; first "
                + answer.items().size()
                + ", errors first):");
    Table table = new Table("SEQ", "OBJECT", "CHANGE", "ERROR");
    for (RunItemView i : answer.items()) {
      table.row(
          i.sequence(),
          i.object(),
          i.changeType(),
          i.errorType() == null ? null : i.errorType() + ": " + i.errorMessage());
    }
    table.print(out());
    return ExitCodes.OK;
  }
}
