package io.jimflow.cli.items;

import io.jimflow.client.WorkItemClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code jimflow items show GUID [--json]}. */
@Command(
    name = "show",
    description = "State, category, instance count and the full transition log.")
public class ItemShowCommand extends ItemCommand {

  @Parameters(index = "0", description = "The item's guid.")
  public String guid;

  @Override
  public int execute(WorkItemClient items) throws Exception {
    return print(items.show(guid));
  }
}
