package io.jimflow.workitem;

import java.time.Instant;

/**
 * How a run attempt ended.
 *
 * @param claimed false when the claim was refused (the item was replaced or cancelled meanwhile)
 * @param stateJson the item's state at the end (the last saved progress when the handler failed)
 * @param done the handler declared its work complete
 * @param successorStartTime set when the handler planned a successor instance
 * @param error the handler's unhandled exception, null when it returned
 * @param shutdownSeen the handler ran while its worker was shutting down
 * @param refused the worker refused to run the item as its spec asked ({@code error} says why): the
 *     item ends in Error for good, with no restart, since every restart would be refused alike
 */
public record RunResult(
    boolean claimed,
    String stateJson,
    boolean done,
    Instant successorStartTime,
    String error,
    boolean shutdownSeen,
    boolean refused) {

  public RunResult(
      boolean claimed,
      String stateJson,
      boolean done,
      Instant successorStartTime,
      String error,
      boolean shutdownSeen) {
    this(claimed, stateJson, done, successorStartTime, error, shutdownSeen, false);
  }

  /** The worker did not run the item: {@code why}. */
  public static RunResult refused(String stateJson, String why) {
    return new RunResult(true, stateJson, false, null, why, false, true);
  }

  public static RunResult notClaimed() {
    return new RunResult(false, null, false, null, null, false);
  }
}
