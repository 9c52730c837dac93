package io.jimflow.cli.executions;

import picocli.CommandLine.Command;

/** {@code jimflow executions approve ID --step NAME --reason TEXT}. */
@Command(
    name = "approve",
    description =
        "Approve a step waiting in AwaitingApproval: it goes past its connected system's threshold"
            + " and sends or marks what it held.")
public class ExecutionApproveCommand extends ExecutionDecisionCommand {
  @Override
  public boolean approve() {
    return true;
  }
}
