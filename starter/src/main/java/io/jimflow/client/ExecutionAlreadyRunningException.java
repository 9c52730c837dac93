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

  /** Refusal of any other kind of run: {@code what} already runs as {@code runningWorkflowId}. */
  public ExecutionAlreadyRunningException(String what, String runningWorkflowId, String reason) {
    super(what + " is already running (" + runningWorkflowId + "): " + reason);
    this.runningWorkflowId = runningWorkflowId;
  }

  public String runningWorkflowId() {
    return runningWorkflowId;
  }
}
