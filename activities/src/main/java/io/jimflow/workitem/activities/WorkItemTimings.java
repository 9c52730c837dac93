package io.jimflow.workitem.activities;

import io.jimflow.schedule.Bounded;
import io.jimflow.workitem.WorkItemSpec;
import java.time.Duration;
import java.util.Optional;

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
 * @param maxRunTime the longest run ({@code maxRunTime + gracePeriod} of its spec) this worker
 *     takes on (default {@link #DEFAULT_MAX_RUN_TIME}); a longer one is refused, not run
 * @param maxRestarts the most {@code maxRestarts} an item's spec may ask for on this worker
 *     (default {@link #DEFAULT_MAX_RESTARTS}); an item asking for more is refused, not run
 * @param maxRetryDelay the longest {@code retryDelay} an item's spec may ask for on this worker
 *     (default {@link #DEFAULT_MAX_RETRY_DELAY}); an item asking for more is refused, not run
 */
public record WorkItemTimings(
    Duration watchInterval,
    Duration stopWait,
    Duration finishedLimit,
    Duration maxRunTime,
    Integer maxRestarts,
    Duration maxRetryDelay) {

  /** The most restarts an item may ask for when nothing else is set. */
  public static final int DEFAULT_MAX_RESTARTS = 100;

  /** The longest retry delay an item may ask for when nothing else is set. */
  public static final Duration DEFAULT_MAX_RETRY_DELAY = Duration.ofHours(24);

  /** The longest run a worker takes on when nothing else is set. */
  public static final Duration DEFAULT_MAX_RUN_TIME = Duration.ofHours(24);

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
    maxRunTime = maxRunTime == null ? DEFAULT_MAX_RUN_TIME : maxRunTime;
    maxRestarts = maxRestarts == null ? DEFAULT_MAX_RESTARTS : maxRestarts;
    maxRetryDelay = maxRetryDelay == null ? DEFAULT_MAX_RETRY_DELAY : maxRetryDelay;
    if (maxRestarts < 0) {
      throw new IllegalArgumentException(
          "jimflow.work-items.max-restarts must be 0 or more, got " + maxRestarts);
    }
    if (maxRetryDelay.isNegative() || maxRetryDelay.isZero()) {
      throw new IllegalArgumentException(
          "jimflow.work-items.max-retry-delay must be positive, got " + maxRetryDelay);
    }
    if (maxRunTime.isNegative() || maxRunTime.isZero()) {
      throw new IllegalArgumentException(
          "jimflow.work-items.max-run-time must be positive, got " + maxRunTime);
    }
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

  /** With the default maximum run time, restarts and retry delay. */
  public WorkItemTimings(Duration watchInterval, Duration stopWait, Duration finishedLimit) {
    this(watchInterval, stopWait, finishedLimit, null);
  }

  /** With the default maximum restarts and retry delay. */
  public WorkItemTimings(
      Duration watchInterval, Duration stopWait, Duration finishedLimit, Duration maxRunTime) {
    this(watchInterval, stopWait, finishedLimit, maxRunTime, null, null);
  }

  /**
   * Why an item is not taken on: its run time ({@link #refusal(Duration)}), or a {@code
   * maxRestarts} or {@code retryDelay} above this worker's maxima; empty when it runs. Unknown
   * values (-1, null: an attempt scheduled before run inputs carried them) are not judged.
   */
  public Optional<String> refusal(Duration runBound, int restarts, Duration retryDelay) {
    Optional<String> tooLong = refusal(runBound);
    if (tooLong.isPresent()) {
      return tooLong;
    }
    if (restarts > maxRestarts) {
      return Optional.of(
          "maxRestarts "
              + restarts
              + " is above this worker's maximum "
              + maxRestarts
              + " (jimflow.work-items.max-restarts): not run");
    }
    if (retryDelay != null && retryDelay.compareTo(maxRetryDelay) > 0) {
      return Optional.of(
          "retryDelay "
              + Bounded.format(retryDelay)
              + " is above this worker's maximum "
              + Bounded.format(maxRetryDelay)
              + " (jimflow.work-items.max-retry-delay): not run");
    }
    return Optional.empty();
  }

  /**
   * Why a run whose activity may take {@code runBound} (its start-to-close timeout: {@code
   * maxRunTime + gracePeriod} of the item's spec, plus {@link WorkItemSpec#RUN_BOUND_MARGIN}) is
   * not taken on; empty when it is within {@link #maxRunTime}. The spec comes from whoever
   * scheduled the item, so this worker, not the spec, decides how long a run may hold a slot.
   */
  public Optional<String> refusal(Duration runBound) {
    if (runBound == null || runBound.isZero()) {
      return Optional.empty();
    }
    Duration asked = runBound.minus(WorkItemSpec.RUN_BOUND_MARGIN);
    if (asked.compareTo(maxRunTime) <= 0) {
      return Optional.empty();
    }
    return Optional.of(
        "maxRunTime + gracePeriod "
            + Bounded.format(asked)
            + " is above this worker's maximum run time "
            + Bounded.format(maxRunTime)
            + " (jimflow.work-items.max-run-time): not run");
  }
}
