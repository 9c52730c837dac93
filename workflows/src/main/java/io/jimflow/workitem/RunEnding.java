package io.jimflow.workitem;

import io.temporal.api.enums.v1.TimeoutType;
import io.temporal.common.converter.Values;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.TimeoutFailure;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How the end of a supervised run attempt reads in the item's lifecycle: the events it leads to, in
 * order, the state the item keeps, and when a successor starts. Decided from the attempt's result
 * or failure alone, so that every way a run can end is checked without Temporal.
 *
 * @param moves the lifecycle events to apply, in order; one that leads nowhere is skipped
 * @param savedState the item's state after the run: the handler's, its last checkpoint, or the
 *     state it started with
 * @param successorStart set when the handler planned a successor instance
 */
record RunEnding(List<Move> moves, String savedState, Instant successorStart) {

  /** One lifecycle event and the note it is logged with. */
  record Move(WorkItemEvent event, String note) {}

  /**
   * The end of an attempt whose handler returned (or threw inside the activity).
   *
   * @param stillRunning whether the item was Running when the attempt ended
   * @param startState the state the item started the run with
   */
  static RunEnding returned(RunResult result, boolean stillRunning, String startState) {
    List<Move> moves = new ArrayList<>();
    String saved = result.stateJson() != null ? result.stateJson() : startState;
    Instant successor = null;
    if (result.shutdownSeen() && stillRunning) {
      moves.add(new Move(WorkItemEvent.SHUTDOWN_REQUESTED, "worker is shutting down"));
    }
    if (result.error() != null) {
      moves.add(new Move(WorkItemEvent.RUN_FAILED, result.error()));
    } else if (result.successorStartTime() != null) {
      successor = result.successorStartTime();
      String planned = "successor planned for " + successor;
      moves.add(new Move(WorkItemEvent.RUN_RETURNED_WITH_SUCCESSOR, planned));
    } else if (result.done()) {
      moves.add(new Move(WorkItemEvent.RUN_RETURNED_DONE, null));
    } else {
      moves.add(new Move(WorkItemEvent.RUN_RETURNED, null));
    }
    return new RunEnding(moves, saved, successor);
  }

  /**
   * The end of an attempt that Temporal failed: lost by its heartbeat, hit by the server's hard
   * time bound, or failed outright.
   *
   * @param heartbeatTimeout the item's heartbeat timeout, named in the log
   * @param startState the state the item started the run with
   */
  static RunEnding failed(ActivityFailure failure, Duration heartbeatTimeout, String startState) {
    if (!(failure.getCause() instanceof TimeoutFailure timeout)) {
      return new RunEnding(
          List.of(new Move(WorkItemEvent.RUN_FAILED, messageOf(failure))), startState, null);
    }
    Move move =
        timeout.getTimeoutType() == TimeoutType.TIMEOUT_TYPE_HEARTBEAT
            ? new Move(
                WorkItemEvent.RUN_LOST,
                "no heartbeat within " + heartbeatTimeout + " (worker crashed or stopped)")
            : new Move(WorkItemEvent.GRACE_EXPIRED, "the server's hard time bound hit the attempt");
    return new RunEnding(List.of(move), lastCheckpoint(timeout, startState), null);
  }

  /** The message of {@code t}'s innermost cause, or its class name when it has none. */
  static String messageOf(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
  }

  private static String lastCheckpoint(TimeoutFailure timeout, String fallback) {
    Values details = timeout.getLastHeartbeatDetails();
    if (details == null || details.getSize() == 0) {
      return fallback;
    }
    RunCheckpoint checkpoint = details.get(RunCheckpoint.class);
    return checkpoint == null || checkpoint.stateJson() == null ? fallback : checkpoint.stateJson();
  }
}
