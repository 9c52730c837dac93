package io.jimflow.cli.items;

import io.jimflow.cli.output.Json;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.WorkItemClient;
import io.jimflow.client.WorkItemSummary;
import io.jimflow.workitem.WorkItemState;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jimflow items list [--state S] [--kind K] [--json]}. */
@Command(name = "list", description = "Items by state and/or kind (the current instance of each).")
public class ItemListCommand extends ItemCommand {

  @Option(names = "--state", description = "One of the 22 states, e.g. Running, Queued, Finished.")
  public WorkItemState state;

  @Option(names = "--kind", description = "A handler kind name.")
  public String kind;

  @Override
  public int execute(WorkItemClient items) throws Exception {
    List<WorkItemSummary> listed = items.list(state, kind);
    if (json.on()) {
      out().println(Json.write(listed));
    } else {
      out()
          .printf("%-36s %-20s %-22s %-10s %s%n", "GUID", "KIND", "STATE", "STATUS", "RUN STARTED");
      for (WorkItemSummary i : listed) {
        out()
            .printf(
                "%-36s %-20s %-22s %-10s %s%n",
                i.guid(), i.kind(), i.state(), i.status(), i.runStartedAt());
      }
    }
    out().flush();
    return ExitCodes.OK;
  }
}
