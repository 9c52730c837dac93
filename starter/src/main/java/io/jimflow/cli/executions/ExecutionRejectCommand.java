package io.jimflow.cli.executions;

import picocli.CommandLine.Command;

/** {@code jimflow executions reject ID --step NAME --reason TEXT}. */
@Command(
    name = "reject",
    description =
        "Reject a step waiting in AwaitingApproval: it ends FailedWithError having sent and marked"
            + " nothing; what was pending stays pending, so the next run holds again.")
public class ExecutionRejectCommand extends ExecutionDecisionCommand {
  @Override
  public boolean approve() {
    return false;
  }
}
