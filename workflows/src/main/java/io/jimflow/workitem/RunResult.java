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
 */
public record RunResult(
    boolean claimed,
    String stateJson,
    boolean done,
    Instant successorStartTime,
    String error,
    boolean shutdownSeen) {

  public static RunResult notClaimed() {
    return new RunResult(false, null, false, null, null, false);
  }
}
