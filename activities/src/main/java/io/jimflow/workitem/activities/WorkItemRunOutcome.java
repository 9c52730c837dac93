package io.jimflow.workitem.activities;

import java.time.Instant;

/**
 * How a handler's run ended.
 *
 * @param stateJson the item's state at the end (what a successor or restart continues from)
 * @param done the work is complete: the instance ends Finished even if it was asked to finish early
 * @param successorStartTime when set, a successor instance is planned for that time (Reschedule)
 */
public record WorkItemRunOutcome(String stateJson, boolean done, Instant successorStartTime) {

  /** The item's work is complete. */
  public static WorkItemRunOutcome done(String stateJson) {
    return new WorkItemRunOutcome(stateJson, true, null);
  }

  /** The handler stopped early because it was asked to; the lifecycle decides what follows. */
  public static WorkItemRunOutcome stopped(String stateJson) {
    return new WorkItemRunOutcome(stateJson, false, null);
  }

  /**
   * The handler ended and plans a successor instance at {@code startTime} with {@code stateJson}.
   */
  public static WorkItemRunOutcome successorAt(Instant startTime, String stateJson) {
    return new WorkItemRunOutcome(stateJson, false, startTime);
  }
}
