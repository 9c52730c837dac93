package io.jimflow.workitem.activities;

import java.time.Duration;

/**
 * How a run worker times the work items it runs ({@code jimflow.work-items.*}); a null takes the
 * default.
 *
 * @param watchInterval how often a running item heartbeats and looks for WorkItemShouldFinish; keep
 *     it well below the items' heartbeat timeout (default 2 s)
 * @param stopWait how long an interrupted handler has to end before the run activity returns
 *     without it and reports it in {@link RunawayHandlers} (default 10 s)
 * @param finishedLimit WorkItemFinished's limit (default and most {@link #FINISHED_LIMIT}, its
 *     StartToClose timeout); past it the call is interrupted and its writes refused
 */
public record WorkItemTimings(Duration watchInterval, Duration stopWait, Duration finishedLimit) {

  /** How often a running item is watched when nothing else is set. */
  public static final Duration DEFAULT_WATCH_INTERVAL = Duration.ofSeconds(2);

  /** Default for how long an interrupted handler has to stop before its slot is released. */
  public static final Duration DEFAULT_STOP_WAIT = Duration.ofSeconds(10);

  /** Seed 003: WorkItemFinished is limited to one minute (also its StartToClose timeout). */
  public static final Duration FINISHED_LIMIT = Duration.ofMinutes(1);

  /**
   * @throws IllegalArgumentException for a stop wait that is not positive, or a finished limit
   *     outside (0, {@link #FINISHED_LIMIT}]
   */
  public WorkItemTimings {
    watchInterval = watchInterval == null ? DEFAULT_WATCH_INTERVAL : watchInterval;
    stopWait = stopWait == null ? DEFAULT_STOP_WAIT : stopWait;
    finishedLimit = finishedLimit == null ? FINISHED_LIMIT : finishedLimit;
    if (stopWait.isNegative() || stopWait.isZero()) {
      throw new IllegalArgumentException(
          "jimflow.work-items.stop-wait must be positive, got " + stopWait);
    }
    if (finishedLimit.isNegative()
        || finishedLimit.isZero()
        || finishedLimit.compareTo(FINISHED_LIMIT) > 0) {
      throw new IllegalArgumentException(
          "jimflow.work-items.finished-limit must lie between 0 and "
              + FINISHED_LIMIT
              + " (WorkItemFinished's StartToClose timeout), got "
              + finishedLimit);
    }
  }
}
