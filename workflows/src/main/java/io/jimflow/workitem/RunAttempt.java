package io.jimflow.workitem;

/**
 * The run attempt an item counts right now, as the workflow answers it: its instance, its attempt
 * token and its state. A run activity's writes are fenced by it: once the work manager gives an
 * attempt up (Killed) the token moves on, and the old attempt's calls are refused.
 */
public record RunAttempt(int instance, long token, WorkItemState state) {

  /** Whether the attempt of {@code instance} holding {@code token} still counts. */
  public boolean counts(int attemptInstance, long attemptToken) {
    return state.category() == WorkItemCategory.RUNNING
        && instance == attemptInstance
        && token == attemptToken;
  }
}
