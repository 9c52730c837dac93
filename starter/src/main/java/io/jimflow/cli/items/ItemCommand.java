package io.jimflow.cli.items;

import io.jimflow.cli.output.Json;
import io.jimflow.cli.output.JsonOutput;
import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import io.jimflow.client.WorkItemClient;
import io.jimflow.workitem.WorkItemTransition;
import io.jimflow.workitem.WorkItemView;
import java.io.PrintWriter;
import picocli.CommandLine.Mixin;

/**
 * A subcommand of {@code jimflow items}: schedule, move, cancel, show and list work items.
 *
 * <p>Exit codes: 0 ok, 1 a shown item ended badly (Error, Killed, Timeout), 2 bad input or a
 * request the item's lifecycle refuses.
 */
abstract class ItemCommand extends ClientCommand {

  @Mixin JsonOutput json;

  @Override
  public final int run(JimflowClient client) throws Exception {
    return execute(client.workItems());
  }

  abstract int execute(WorkItemClient items) throws Exception;

  /** Prints the item; exits 1 when it ended badly. */
  int print(WorkItemView view) {
    if (json.on()) {
      out().println(Json.write(view));
    } else {
      printView(out(), view);
    }
    out().flush();
    return switch (view.state()) {
      case Error, Killed, Timeout -> ExitCodes.ENDED_BADLY;
      default -> ExitCodes.OK;
    };
  }

  static void printView(PrintWriter out, WorkItemView v) {
    out.printf("work item %s (%s)%n", v.guid(), v.kind());
    out.printf("  state:     %s (%s)%n", v.state(), v.category().label());
    out.printf(
        "  instance:  %d, restarts used %d of %d%n",
        v.instance(), v.restartsUsed(), v.maxRestarts());
    out.printf("  start:     %s%n", v.startTime() == null ? "none (suspended)" : v.startTime());
    if (v.predecessorGuid() != null) {
      out.printf("  after:     %s%n", v.predecessorGuid());
    }
    out.println("  log:");
    for (WorkItemTransition t : v.log()) {
      String change =
          t.from() == t.to()
              ? "(" + t.to() + ")"
              : (t.from() == null ? "" : t.from() + " → ") + t.to();
      out.printf(
          "    %s  #%d  %-45s %s%n",
          t.at(), t.instance(), change, t.note() == null ? "" : t.note());
    }
  }
}
