package io.jimflow.worker.workitem;

import io.jimflow.workitem.activities.WorkItemTimings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Work item settings ({@code jimflow.work-items.*}).
 *
 * @param slots how many items run at once on this worker process: the run queue worker's activity
 *     slots, the items' "free process resource" (default 4)
 * @param watchInterval how often a running item heartbeats and looks for WorkItemShouldFinish; keep
 *     it well below the items' heartbeat timeout (default 2 s)
 * @param stopWait how long a killed handler, once interrupted, has to end before the run activity
 *     gives its slot back without it and reports the worker unhealthy (default 10 s)
 * @param finishedLimit WorkItemFinished's limit (default and most 1 minute, its StartToClose
 *     timeout); past it the call is interrupted and its writes refused
 * @param maxRunTime the longest run ({@code maxRunTime + gracePeriod} of an item's spec) this
 *     worker takes on (default 24 h); whoever schedules an item sets its spec, a longer run ends in
 *     Error unrun
 * @param maxRestarts the most {@code maxRestarts} an item's spec may ask for (default 100); an item
 *     asking for more ends in Error unrun
 * @param maxRetryDelay the longest {@code retryDelay} an item's spec may ask for (default 24 h);
 *     likewise
 */
@ConfigurationProperties("jimflow.work-items")
public record WorkItemSettings(
    Integer slots,
    Duration watchInterval,
    Duration stopWait,
    Duration finishedLimit,
    Duration maxRunTime,
    Integer maxRestarts,
    Duration maxRetryDelay) {

  /** Execution slots per worker process when {@code jimflow.work-items.slots} is not set. */
  public static final int DEFAULT_SLOTS = 4;

  public WorkItemSettings {
    slots = slots == null ? DEFAULT_SLOTS : slots;
    if (slots < 1) {
      throw new IllegalArgumentException(
          "jimflow.work-items.slots must be at least 1, got " + slots);
    }
    WorkItemTimings timings =
        new WorkItemTimings(
            watchInterval, stopWait, finishedLimit, maxRunTime, maxRestarts, maxRetryDelay);
    watchInterval = timings.watchInterval();
    stopWait = timings.stopWait();
    finishedLimit = timings.finishedLimit();
    maxRunTime = timings.maxRunTime();
    maxRestarts = timings.maxRestarts();
    maxRetryDelay = timings.maxRetryDelay();
  }

  /** The timings of the items this worker runs (defaults and limits applied). */
  public WorkItemTimings timings() {
    return new WorkItemTimings(
        watchInterval, stopWait, finishedLimit, maxRunTime, maxRestarts, maxRetryDelay);
  }
}
