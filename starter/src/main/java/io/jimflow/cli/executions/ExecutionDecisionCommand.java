package io.jimflow.cli.executions;

import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import io.jimflow.schedule.ApprovalDecision;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jimflow executions approve|reject ID --step NAME --reason TEXT}: a decision on a step
 * waiting in AwaitingApproval, sent as a Temporal update so the execution says at once whether it
 * took it. Who decided is the operating-system user.
 */
abstract class ExecutionDecisionCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "WORKFLOW-ID")
  String workflowId;

  @Option(
      names = "--step",
      required = true,
      paramLabel = "NAME",
      description = "The step waiting in AwaitingApproval (as executions show names it).")
  String step;

  @Option(
      names = "--reason",
      required = true,
      paramLabel = "TEXT",
      description = "Why, for the run record and the execution record (one line).")
  String reason;

  abstract boolean approve();

  @Override
  public int run(JimflowClient client) {
    String user = System.getProperty("user.name", "unknown");
    String taken =
        client.executions().decide(workflowId, new ApprovalDecision(step, approve(), user, reason));
    out().println(workflowId + ": " + taken + ".");
    return ExitCodes.OK;
  }
}
