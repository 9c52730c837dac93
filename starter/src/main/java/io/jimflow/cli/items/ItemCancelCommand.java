package io.jimflow.cli.items;

import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.WorkItemClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jimflow items cancel GUID [--reason TEXT]}. */
@Command(
    name = "cancel",
    description = "Cancel an item: removed before its start, asked to end while running.")
public class ItemCancelCommand extends ItemCommand {

  @Parameters(index = "0", description = "The item's guid.")
  public String guid;

  @Option(names = "--reason", defaultValue = "cancelled from the command line")
  public String reason;

  @Override
  public int execute(WorkItemClient items) throws Exception {
    print(items.cancel(guid, reason));
    return ExitCodes.OK;
  }
}
