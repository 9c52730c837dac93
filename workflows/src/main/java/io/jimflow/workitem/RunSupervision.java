package io.jimflow.workitem;

import java.time.Duration;
import java.time.Instant;

/**
 * What the supervision of a running attempt does next, decided from its state and the time alone.
 *
 * <p>The order of the rules matters and is part of the workflow's command sequence: a user's cancel
 * wins over a reached max run time, both win over a worker shutdown, and a grace period that has
 * run out abandons the attempt. A cancel also reaches an item already ending for a shutdown or its
 * max run time, so that the item ends Cancelled rather than restarting. Keeping the rules here lets
 * them be checked without Temporal, at any moment a test chooses.
 */
final class RunSupervision {

  /** What the supervising workflow does with a running attempt. */
  enum Action {
    /** Ask the run to finish because a user cancelled it; its grace period starts. */
    ASK_TO_FINISH_CANCELLED(WorkItemEvent.CANCEL_REQUESTED, true),
    /** Ask the run to finish because its max run time is reached; its grace period starts. */
    ASK_TO_FINISH_MAX_RUN_TIME(WorkItemEvent.MAX_RUN_TIME_REACHED, true),
    /** Ask the run to finish because its worker shuts down; it restarts later, no grace period. */
    ASK_TO_FINISH_SHUTDOWN(WorkItemEvent.SHUTDOWN_REQUESTED, false),
    /** The grace period ran out: abandon the attempt; the item ends Killed. */
    ABANDON(WorkItemEvent.GRACE_EXPIRED, false),
    /** Nothing to do until the run ends, a request arrives, or {@link Decision#wakeAt()}. */
    WAIT(null, false);

    private final WorkItemEvent event;
    private final boolean startsGrace;

    Action(WorkItemEvent event, boolean startsGrace) {
      this.event = event;
      this.startsGrace = startsGrace;
    }

    /** The lifecycle event the action applies, or null for {@link #WAIT}. */
    WorkItemEvent event() {
      return event;
    }

    /** Whether the grace period starts when the action is taken. */
    boolean startsGrace() {
      return startsGrace;
    }

    /** The note the action's event is logged with (the abandoning one says its grace period). */
    String note(String cancelReason, Duration maxRunTime) {
      return switch (this) {
        case ASK_TO_FINISH_CANCELLED -> cancelReason;
        case ASK_TO_FINISH_MAX_RUN_TIME -> "max run time " + maxRunTime + " reached";
        case ASK_TO_FINISH_SHUTDOWN -> "worker is shutting down";
        default -> null;
      };
    }
  }

  /**
   * The supervision's view of one attempt.
   *
   * @param graceEnds when the grace period ends, or null while none runs
   * @param cancelWinsWhileEnding whether a cancel also reaches an item already asked to end for a
   *     shutdown or its max run time (false only for executions begun before this rule existed)
   */
  record Watch(
      WorkItemState state,
      Instant maxRunEnds,
      Instant graceEnds,
      boolean cancelRequested,
      boolean shutdownRequested,
      boolean cancelWinsWhileEnding) {

    Watch(
        WorkItemState state,
        Instant maxRunEnds,
        Instant graceEnds,
        boolean cancelRequested,
        boolean shutdownRequested) {
      this(state, maxRunEnds, graceEnds, cancelRequested, shutdownRequested, true);
    }

    /** True when a cancel is pending that the run has not been asked to end for yet. */
    boolean cancelToDeliver() {
      return cancelRequested
          && (state == WorkItemState.Running
              || (cancelWinsWhileEnding
                  && (state == WorkItemState.ShutdownRequest
                      || state == WorkItemState.CancellingBySystem)));
    }
  }

  /**
   * The next action and, when waiting, the moment to look again.
   *
   * @param wakeAt null when only the run's end or a request can change anything
   */
  record Decision(Action action, Instant wakeAt) {}

  private RunSupervision() {}

  /** The next step for a run watched as {@code watch}, at {@code now}. */
  static Decision next(Watch watch, Instant now) {
    boolean running = watch.state() == WorkItemState.Running;
    if (watch.cancelToDeliver()) {
      return new Decision(Action.ASK_TO_FINISH_CANCELLED, null);
    }
    if (running && !now.isBefore(watch.maxRunEnds())) {
      return new Decision(Action.ASK_TO_FINISH_MAX_RUN_TIME, null);
    }
    if (running && watch.shutdownRequested()) {
      return new Decision(Action.ASK_TO_FINISH_SHUTDOWN, null);
    }
    if (watch.graceEnds() != null && !now.isBefore(watch.graceEnds())) {
      return new Decision(Action.ABANDON, null);
    }
    Instant wakeAt =
        watch.graceEnds() != null ? watch.graceEnds() : running ? watch.maxRunEnds() : null;
    return new Decision(Action.WAIT, wakeAt);
  }
}
