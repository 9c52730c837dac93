package io.jimflow.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.client.JimflowClient;
import io.jimflow.workitem.WorkItemClient;
import io.jimflow.workitem.WorkItemRefusedException;
import io.jimflow.workitem.WorkItemSpec;
import io.jimflow.workitem.WorkItemState;
import io.jimflow.workitem.WorkItemSummary;
import io.jimflow.workitem.WorkItemTransition;
import io.jimflow.workitem.WorkItemView;
import io.temporal.client.WorkflowNotFoundException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jimflow items …}: schedule, move, cancel, show and list work items.
 *
 * <p>Exit codes: 0 ok, 1 a shown item ended badly (Error, Killed, Timeout), 2 bad input or a
 * request the item's lifecycle refuses.
 */
@Command(
    name = "items",
    description = "Work items: schedule, start-time, cancel, show, list.",
    mixinStandardHelpOptions = true)
public class ItemsCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand");
  }

  static final ObjectMapper JSON = Json.mapper();

  /** Shared plumbing of the subcommands: the item client, and refusals → exit code 2. */
  abstract static class ItemSubcommand extends ClientCommand {

    ItemSubcommand(ClientFactory clients) {
      super(clients);
    }

    @Override
    final int run(JimflowClient client) throws Exception {
      try {
        return execute(client.workItems());
      } catch (WorkItemRefusedException e) {
        err().println("jimflow: " + e.getMessage());
        return JimflowCli.BAD_INPUT;
      } catch (WorkflowNotFoundException e) {
        err().println("jimflow: no work item with guid " + e.getExecution().getWorkflowId());
        return JimflowCli.BAD_INPUT;
      }
    }

    abstract int execute(WorkItemClient client) throws Exception;

    int print(WorkItemView view, boolean json) throws IOException {
      if (json) {
        out().println(JSON.writeValueAsString(view));
      } else {
        printView(out(), view);
      }
      out().flush();
      return switch (view.state()) {
        case Error, Killed, Timeout -> JimflowCli.ENDED_BADLY;
        default -> JimflowCli.OK;
      };
    }
  }

  @Command(
      name = "schedule",
      description = "Schedule an item, or replace the not-yet-started item with the same guid.")
  static final class Schedule extends ItemSubcommand {
    public Schedule(ClientFactory clients) {
      super(clients);
    }

    @Option(names = "--guid", required = true, description = "The item's InstanceGuid.")
    String guid;

    @Option(names = "--kind", required = true, description = "The handler's kind name.")
    String kind;

    @Option(names = "--state", description = "The item's state as JSON.")
    String stateJson;

    @Option(names = "--state-file", description = "A file holding the item's state as JSON.")
    Path stateFile;

    @Option(
        names = "--start",
        description = "Planned start: an ISO instant, 'now', or '+' and an ISO duration (+PT10M).")
    String start;

    @Option(
        names = "--suspended",
        description = "No start time: wait until start-time wakes the item.")
    boolean suspended;

    @Option(
        names = "--expected-run-time",
        description = "ISO duration (default PT1M); orders the queue.")
    String expectedRunTime;

    @Option(names = "--max-run-time", description = "ISO duration (default PT1H).")
    String maxRunTime;

    @Option(
        names = "--grace",
        description = "Grace period after should-finish, ISO duration (default PT1M).")
    String grace;

    @Option(names = "--max-restarts", description = "Timeout/error retries (default 3).")
    Integer maxRestarts;

    @Option(
        names = "--retry-delay",
        description = "ISO duration (default PT10S), plus a small jitter.")
    String retryDelay;

    @Option(
        names = "--heartbeat-timeout",
        description = "ISO duration (default PT30S): how soon a crash is noticed.")
    String heartbeatTimeout;

    @Option(names = "--predecessor", description = "Guid of an item that must end first.")
    String predecessor;

    @Option(names = "--json", description = "Print the item as JSON.")
    boolean json;

    private WorkItemSpec item;

    /** Everything is checked before connecting, so a wrong option never reaches the server. */
    @Override
    Integer checkInput() {
      if (suspended == (start != null)) {
        throw new IllegalArgumentException("give exactly one of --start and --suspended");
      }
      if (stateJson != null && stateFile != null) {
        throw new IllegalArgumentException("give at most one of --state and --state-file");
      }
      if (maxRestarts != null && maxRestarts < 0) {
        throw new IllegalArgumentException("--max-restarts: must be 0 or more, was " + maxRestarts);
      }
      String state;
      try {
        state = stateFile != null ? Files.readString(stateFile) : stateJson;
      } catch (IOException e) {
        throw new IllegalArgumentException(stateFile + ": cannot be read (" + e.getMessage() + ")");
      }
      if (state != null) {
        try {
          JSON.readTree(state);
        } catch (IOException e) {
          throw new IllegalArgumentException(
              (stateFile != null ? stateFile.toString() : "--state")
                  + ": not valid JSON: "
                  + e.getMessage().lines().findFirst().orElse(""));
        }
      }
      item =
          new WorkItemSpec(
                  guid,
                  kind,
                  state,
                  suspended ? null : parseStart("--start", start),
                  duration("--expected-run-time", expectedRunTime),
                  duration("--max-run-time", maxRunTime),
                  duration("--grace", grace),
                  maxRestarts == null ? WorkItemSpec.DEFAULT : maxRestarts,
                  duration("--retry-delay", retryDelay),
                  duration("--heartbeat-timeout", heartbeatTimeout),
                  predecessor)
              .withDefaults();
      List<String> problems = item.problems();
      if (!problems.isEmpty()) {
        throw new IllegalArgumentException(
            "work item " + guid + ": " + String.join("; ", problems));
      }
      return null;
    }

    @Override
    int execute(WorkItemClient client) throws Exception {
      print(client.schedule(item), json);
      return JimflowCli.OK;
    }
  }

  @Command(
      name = "start-time",
      description = "Move a planned item's start in place (also wakes a suspended item).")
  static final class StartTime extends ItemSubcommand {
    public StartTime(ClientFactory clients) {
      super(clients);
    }

    @Parameters(index = "0", description = "The item's guid.")
    String guid;

    @Parameters(
        index = "1",
        description = "An ISO instant, 'now', or '+' and an ISO duration (+PT10M).")
    String start;

    @Option(names = "--json")
    boolean json;

    @Override
    int execute(WorkItemClient client) throws Exception {
      print(client.changeStartTime(guid, parseStart("start", start)), json);
      return JimflowCli.OK;
    }
  }

  @Command(
      name = "cancel",
      description = "Cancel an item: removed before its start, asked to end while running.")
  static final class Cancel extends ItemSubcommand {
    public Cancel(ClientFactory clients) {
      super(clients);
    }

    @Parameters(index = "0", description = "The item's guid.")
    String guid;

    @Option(names = "--reason", defaultValue = "cancelled from the command line")
    String reason;

    @Option(names = "--json")
    boolean json;

    @Override
    int execute(WorkItemClient client) throws Exception {
      print(client.cancel(guid, reason), json);
      return JimflowCli.OK;
    }
  }

  @Command(
      name = "show",
      description = "State, category, instance count and the full transition log.")
  static final class Show extends ItemSubcommand {
    public Show(ClientFactory clients) {
      super(clients);
    }

    @Parameters(index = "0", description = "The item's guid.")
    String guid;

    @Option(names = "--json")
    boolean json;

    @Override
    int execute(WorkItemClient client) throws Exception {
      return print(client.show(guid), json);
    }
  }

  @Command(
      name = "list",
      description = "Items by state and/or kind (the current instance of each).")
  static final class ListItems extends ItemSubcommand {
    public ListItems(ClientFactory clients) {
      super(clients);
    }

    @Option(
        names = "--state",
        description = "One of the 22 states, e.g. Running, Queued, Finished.")
    WorkItemState state;

    @Option(names = "--kind", description = "A handler kind name.")
    String kind;

    @Option(names = "--json")
    boolean json;

    @Override
    int execute(WorkItemClient client) throws Exception {
      List<WorkItemSummary> items = client.list(state, kind);
      if (json) {
        out().println(JSON.writeValueAsString(items));
      } else {
        out()
            .printf(
                "%-36s %-20s %-22s %-10s %s%n", "GUID", "KIND", "STATE", "STATUS", "RUN STARTED");
        for (WorkItemSummary i : items) {
          out()
              .printf(
                  "%-36s %-20s %-22s %-10s %s%n",
                  i.guid(), i.kind(), i.state(), i.status(), i.runStartedAt());
        }
      }
      out().flush();
      return JimflowCli.OK;
    }
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
