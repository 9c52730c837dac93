package io.jimflow.cli.executions;

import io.jimflow.cli.output.Json;
import io.jimflow.cli.output.JsonOutput;
import io.jimflow.cli.output.Table;
import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.ExecutionListing;
import io.jimflow.client.ExecutionSummary;
import io.jimflow.client.JimflowClient;
import io.jimflow.common.TaskQueues;
import io.jimflow.schedule.ExecutionStatus;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code jimflow executions list [--schedule ID] [--status S] [--limit N] [--json]}. */
@Command(
    name = "list",
    description =
        "List executions, newest first: Temporal's (its visibility lags a moment) and, through a"
            + " worker, the store's execution history for those Temporal no longer has.")
public class ExecutionListCommand extends ClientCommand {

  @Option(names = "--schedule", paramLabel = "ID", description = "Only this schedule's executions.")
  public String scheduleId;

  @Option(
      names = "--status",
      paramLabel = "STATUS",
      description = "Only executions in this status: ${COMPLETION-CANDIDATES}.")
  public ExecutionStatus status;

  @Option(
      names = "--limit",
      defaultValue = "20",
      description = "At most this many (default ${DEFAULT-VALUE}).")
  public int limit;

  @Option(
      names = "--awaiting-approval",
      description = "Only running executions with a step waiting in AwaitingApproval.")
  public boolean awaitingApproval;

  @Mixin public JsonOutput json;

  @Override
  public void checkInput() {
    if (limit < 1) {
      throw new IllegalArgumentException("--limit must be at least 1");
    }
  }

  @Override
  public int run(JimflowClient client) {
    if (awaitingApproval && status != null && status != ExecutionStatus.InProgress) {
      throw new IllegalArgumentException(
          "--awaiting-approval lists running executions; it cannot go with --status " + status);
    }
    ExecutionListing listing =
        awaitingApproval
            ? new ExecutionListing(client.executions().awaitingApproval(scheduleId, limit), true)
            : client.executions().listWithHistory(scheduleId, status, limit);
    List<ExecutionSummary> executions = listing.executions();
    if (!listing.storeAsked()) {
      err()
          .println(
              "Note: no worker on "
                  + TaskQueues.MAINTENANCE
                  + ", so only executions Temporal still has are listed (not the store's"
                  + " execution history).");
    }
    if (json.on()) {
      out().println(Json.write(Map.of("executions", executions)));
      return ExitCodes.OK;
    }
    if (executions.isEmpty()) {
      out().println("No executions found.");
      return ExitCodes.OK;
    }
    Table table = new Table("WORKFLOW ID", "SCHEDULE", "STATUS", "STARTED", "ENDED", "SOURCE");
    executions.forEach(
        e ->
            table.row(
                e.workflowId(),
                e.scheduleId(),
                e.status(),
                e.startedAt(),
                e.endedAt(),
                e.source()));
    table.print(out());
    return ExitCodes.OK;
  }
}
