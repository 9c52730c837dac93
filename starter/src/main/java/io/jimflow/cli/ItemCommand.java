package io.jimflow.cli;

import io.jimflow.client.JimflowClient;
import io.jimflow.client.WorkItemClient;
import io.jimflow.workitem.WorkItemTransition;
import io.jimflow.workitem.WorkItemView;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * A subcommand of {@code jimflow items}: schedule, move, cancel, show and list work items.
 *
 * <p>Exit codes: 0 ok, 1 a shown item ended badly (Error, Killed, Timeout), 2 bad input or a
 * request the item's lifecycle refuses.
 */
abstract class ItemCommand extends ClientCommand {

  ItemCommand(ClientFactory clients) {
    super(clients);
  }

  @Override
  final int run(JimflowClient client) throws Exception {
    return execute(client.workItems());
  }

  abstract int execute(WorkItemClient items) throws Exception;

  /** Prints the item; exits 1 when it ended badly. */
  int print(WorkItemView view, boolean json) {
    if (json) {
      out().println(Json.write(view));
    } else {
      printView(out(), view);
    }
    out().flush();
    return switch (view.state()) {
      case Error, Killed, Timeout -> JimflowCli.ENDED_BADLY;
      default -> JimflowCli.OK;
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

  static Instant parseStart(String what, String text) {
    if (text == null) {
      return null;
    }
    try {
      if (text.equals("now")) {
        return Instant.now();
      }
      if (text.startsWith("+")) {
        return Instant.now().plus(Duration.parse(text.substring(1)));
      }
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          what
              + ": '"
              + text
              + "' is neither an ISO instant (2026-01-31T08:00:00Z), 'now', nor +duration (+PT10M)");
    }
  }

  static Duration duration(String what, String text) {
    if (text == null) {
      return null;
    }
    try {
      return Duration.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          what + ": '" + text + "' is not an ISO-8601 duration such as PT10M");
    }
  }
}
