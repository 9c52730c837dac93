package io.jimflow.client;

import io.jimflow.schedule.ExecutionStatus;

/**
 * A request that needs a running execution (a cancel) named one that has already ended; nothing was
 * changed. As JIM refuses to cancel a finished execution, so does jimflow, rather than report a
 * cancel that Temporal would silently ignore.
 */
public class ExecutionEndedException extends RuntimeException {

  private final String workflowId;
  private final ExecutionStatus status;

  public ExecutionEndedException(String workflowId, ExecutionStatus status) {
    super("cannot cancel " + workflowId + ": it ended " + status);
    this.workflowId = workflowId;
    this.status = status;
  }

  public String workflowId() {
    return workflowId;
  }

  /** How the execution ended (never InProgress). */
  public ExecutionStatus status() {
    return status;
  }
}
