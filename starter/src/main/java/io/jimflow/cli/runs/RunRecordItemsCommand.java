package io.jimflow.cli.runs;

import io.jimflow.cli.output.Json;
import io.jimflow.cli.output.JsonOutput;
import io.jimflow.cli.output.Table;
import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import io.jimflow.runrecords.RunItemView;
import io.jimflow.runrecords.RunRecordsAnswer;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jimflow runs items <id> [--errors] [--limit N] [--json]}. */
@Command(name = "items", description = "List a run record's run items in the order written.")
public class RunRecordItemsCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "RUN-RECORD-ID")
  public String id;

  @Option(names = "--errors", description = "Only items with errors.")
  public boolean errorsOnly;

  @Option(
      names = "--limit",
      defaultValue = "100",
      description = "At most N (default ${DEFAULT-VALUE}).")
  public int limit;

  @Mixin public JsonOutput json;

  @Override
  public int run(JimflowClient client) {
    RunRecordsAnswer answer = client.runRecords().items(id, errorsOnly, limit);
    if (json.on()) {
      out().println(Json.write(Map.of("runRecordId", id, "items", answer.items())));
      return ExitCodes.OK;
    }
    Table table = new Table("SEQ", "OBJECT", "CHANGE", "ERROR TYPE", "MESSAGE");
    for (RunItemView i : answer.items()) {
      table.row(i.sequence(), i.object(), i.changeType(), i.errorType(), i.errorMessage());
    }
    table.print(out());
    return ExitCodes.OK;
  }
}
