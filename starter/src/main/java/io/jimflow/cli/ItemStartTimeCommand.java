package io.jimflow.cli;

import io.jimflow.client.WorkItemClient;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code jimflow items start-time GUID (ISO|now|+PT10M)}. */
@Command(
    name = "start-time",
    description = "Move a planned item's start in place (also wakes a suspended item).")
public class ItemStartTimeCommand extends ItemCommand {

  @Parameters(index = "0", description = "The item's guid.")
  String guid;

  @Parameters(
      index = "1",
      description = "An ISO instant, 'now', or '+' and an ISO duration (+PT10M).")
  Instant start;

  @Override
  int execute(WorkItemClient items) throws Exception {
    print(items.changeStartTime(guid, start));
    return JimflowCli.OK;
  }
}
