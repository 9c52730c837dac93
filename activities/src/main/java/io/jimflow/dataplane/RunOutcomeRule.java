package io.jimflow.dataplane;

import io.jimflow.store.RunStatus;

/** How a run ends, by JIM's rule. */
public final class RunOutcomeRule {

  private RunOutcomeRule() {}

  /**
   * An unhandled error → CompleteWithError; every run item errored → FailedWithError; some →
   * CompleteWithError (each error item is one object the run could not handle; the others went on);
   * none (or no items at all) → Complete.
   */
  public static RunStatus decide(long items, long erroredItems, boolean unhandledError) {
    if (unhandledError) {
      return RunStatus.CompleteWithError;
    }
    if (erroredItems > 0 && erroredItems >= items) {
      return RunStatus.FailedWithError;
    }
    return erroredItems > 0 ? RunStatus.CompleteWithError : RunStatus.Complete;
  }
}
