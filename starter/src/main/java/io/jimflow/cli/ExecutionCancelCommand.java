package io.jimflow.cli;

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
  String workflowId;

  @Override
  int run(JimflowClient client) {
    client.executions().cancel(workflowId);
    out().println("Cancellation requested for " + workflowId + ".");
    return JimflowCli.OK;
  }
}
