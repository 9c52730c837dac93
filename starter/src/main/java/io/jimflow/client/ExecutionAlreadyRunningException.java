package io.jimflow.client;

/** An exclusive run was refused because an execution of the same schedule is still open. */
public class ExecutionAlreadyRunningException extends RuntimeException {

  private final String runningWorkflowId;

  public ExecutionAlreadyRunningException(String scheduleId, String runningWorkflowId) {
    super(
        "schedule "
            + scheduleId
            + " already has an open execution ("
            + runningWorkflowId
            + "); not starting another because --exclusive was given");
    this.runningWorkflowId = runningWorkflowId;
  }

  public String runningWorkflowId() {
    return runningWorkflowId;
  }
}
