package io.jimflow.cli;

import io.jimflow.client.WorkItemClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jimflow items show GUID [--json]}. */
@Command(
    name = "show",
    description = "State, category, instance count and the full transition log.")
public class ItemShowCommand extends ItemCommand {
  public ItemShowCommand(ClientFactory clients) {
    super(clients);
  }

  @Parameters(index = "0", description = "The item's guid.")
  String guid;

  @Option(names = "--json")
  boolean json;

  @Override
  int execute(WorkItemClient items) throws Exception {
    return print(items.show(guid), json);
  }
}
