package io.jimflow.cli.items;

import io.jimflow.cli.shared.ExitCodes;
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
  public String guid;

  @Parameters(
      index = "1",
      description = "An ISO instant, 'now', or '+' and an ISO duration (+PT10M).")
  public Instant start;

  @Override
  public int execute(WorkItemClient items) throws Exception {
    print(items.changeStartTime(guid, start));
    return ExitCodes.OK;
  }
}
