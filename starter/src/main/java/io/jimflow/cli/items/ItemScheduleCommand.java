package io.jimflow.cli.items;

import io.jimflow.cli.output.Json;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.WorkItemClient;
import io.jimflow.workitem.WorkItemSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jimflow items schedule --guid G --kind K (--start T | --suspended) ...}. */
@Command(
    name = "schedule",
    description = "Schedule an item, or replace the not-yet-started item with the same guid.")
public class ItemScheduleCommand extends ItemCommand {

  @Option(names = "--guid", required = true, description = "The item's InstanceGuid.")
  public String guid;

  @Option(names = "--kind", required = true, description = "The handler's kind name.")
  public String kind;

  @Option(names = "--state", description = "The item's state as JSON.")
  public String stateJson;

  @Option(names = "--state-file", description = "A file holding the item's state as JSON.")
  public Path stateFile;

  @Option(
      names = "--start",
      description = "Planned start: an ISO instant, 'now', or '+' and an ISO duration (+PT10M).")
  public Instant start;

  @Option(
      names = "--suspended",
      description = "No start time: wait until start-time wakes the item.")
  public boolean suspended;

  @Option(
      names = "--expected-run-time",
      description = "ISO duration (default PT1M); orders the queue.")
  public Duration expectedRunTime;

  @Option(names = "--max-run-time", description = "ISO duration (default PT1H).")
  public Duration maxRunTime;

  @Option(
      names = "--grace",
      description = "Grace period after should-finish, ISO duration (default PT1M).")
  public Duration grace;

  @Option(names = "--max-restarts", description = "Timeout/error retries (default 3).")
  public Integer maxRestarts;

  @Option(
      names = "--retry-delay",
      description = "ISO duration (default PT10S), plus a small jitter.")
  public Duration retryDelay;

  @Option(
      names = "--heartbeat-timeout",
      description = "ISO duration (default PT30S): how soon a crash is noticed.")
  public Duration heartbeatTimeout;

  @Option(names = "--predecessor", description = "Guid of an item that must end first.")
  public String predecessor;

  private WorkItemSpec item;

  /** Everything is checked before connecting, so a wrong option never reaches the server. */
  @Override
  public void checkInput() {
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
        Json.mapper().readTree(state);
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
                suspended ? null : start,
                expectedRunTime,
                maxRunTime,
                grace,
                maxRestarts == null ? WorkItemSpec.DEFAULT : maxRestarts,
                retryDelay,
                heartbeatTimeout,
                predecessor)
            .withDefaults();
    List<String> problems = item.problems();
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("work item " + guid + ": " + String.join("; ", problems));
    }
  }

  @Override
  public int execute(WorkItemClient items) throws Exception {
    print(items.schedule(item));
    return ExitCodes.OK;
  }
}
