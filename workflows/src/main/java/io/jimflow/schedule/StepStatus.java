package io.jimflow.schedule;

/**
 * The state of one step in an execution: Waiting and Running while it is under way, then one of
 * JIM's audit statuses, or Skipped for a step that never started.
 */
public enum StepStatus {
  Waiting,
  Running,
  /** Held above a threshold of its connected system until a person approves or rejects it. */
  AwaitingApproval,
  Complete,
  CompleteWithWarning,
  CompleteWithError,
  FailedWithError,
  Cancelled,
  Skipped;

  /**
   * A step has failed when it ended FailedWithError, CompleteWithError or Cancelled (as in JIM).
   */
  public boolean isFailure() {
    return this == FailedWithError || this == CompleteWithError || this == Cancelled;
  }

  public boolean isFinal() {
    return this != Waiting && this != Running && this != AwaitingApproval;
  }
}
