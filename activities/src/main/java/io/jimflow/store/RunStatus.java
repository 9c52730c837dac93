package io.jimflow.store;

/** The status of a run record: InProgress while it runs, then one final status. */
public enum RunStatus {
  InProgress,
  Complete,
  CompleteWithWarning,
  CompleteWithError,
  FailedWithError,
  Cancelled;

  public boolean isFinal() {
    return this != InProgress;
  }
}
