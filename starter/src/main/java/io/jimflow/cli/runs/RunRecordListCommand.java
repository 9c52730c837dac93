package io.jimflow.cli.runs;

import io.jimflow.cli.output.Json;
import io.jimflow.cli.output.JsonOutput;
import io.jimflow.cli.output.Table;
import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import io.jimflow.runrecords.RunRecordView;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code jimflow runs list [--system S] [--status S] [--limit N] [--json]}. */
@Command(name = "list", description = "List run records, newest first.")
public class RunRecordListCommand extends ClientCommand {

  @Option(names = "--system", paramLabel = "ID", description = "Only this connected system's.")
  public String system;

  @Option(
      names = "--status",
      paramLabel = "STATUS",
      description =
          "Only this status: InProgress, Complete, CompleteWithWarning, CompleteWithError,"
              + " FailedWithError, Cancelled.")
  public String status;

  @Option(
      names = "--limit",
      defaultValue = "20",
      description = "At most N (default ${DEFAULT-VALUE}).")
  public int limit;

  @Mixin public JsonOutput json;

  @Override
  public int run(JimflowClient client) {
    List<RunRecordView> records = client.runRecords().list(system, status, limit);
    if (json.on()) {
      out().println(Json.write(Map.of("runs", records)));
      return ExitCodes.OK;
    }
    Table table =
        new Table("ID", "SYSTEM", "RUN PROFILE", "STATUS", "STARTED", "PROCESSED", "ERRORS");
    for (RunRecordView r : records) {
      table.row(
          r.id(),
          r.connectedSystem(),
          r.runProfile(),
          r.status(),
          r.startedAt(),
          r.objectsProcessed(),
          r.totals().getOrDefault("errors", 0L));
    }
    table.print(out());
    return ExitCodes.OK;
  }
}
