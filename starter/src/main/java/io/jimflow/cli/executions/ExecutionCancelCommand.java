package io.jimflow.cli.executions;

import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code jimflow executions cancel ID}. */
@Command(
    name = "cancel",
    description = {
      "Cancel an execution: running steps end Cancelled, later steps are Skipped; the execution",
      "records you as its canceller. An execution that has ended is refused (exit 2)."
    })
public class ExecutionCancelCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "WORKFLOW-ID")
  public String workflowId;

  @Override
  public int run(JimflowClient client) {
    client.executions().cancel(workflowId);
    out().println("Cancellation requested for " + workflowId + ".");
    return ExitCodes.OK;
  }
}
