package io.jimflow.schedule;

/**
 * The status of a schedule execution. Constants are named as JIM names them, so that logs, the
 * {@code JimflowStatus} search attribute, the CLI and JSON all read the same.
 */
public enum ExecutionStatus {
  InProgress,
  Complete,
  CompleteWithError,
  Failed,
  Cancelled;

  public boolean isFinal() {
    return this != InProgress;
  }
}
