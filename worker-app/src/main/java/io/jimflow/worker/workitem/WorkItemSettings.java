package io.jimflow.worker.workitem;

import io.jimflow.workitem.WorkItemActivitiesImpl;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Work item settings ({@code jimflow.work-items.*}).
 *
 * @param slots how many items run at once on this worker process: the run queue worker's activity
 *     slots, the items' "free process resource" (default 4)
 * @param watchInterval how often a running item heartbeats and looks for WorkItemShouldFinish; keep
 *     it well below the items' heartbeat timeout (default 30 s)
 * @param stopWait how long a killed handler, once interrupted, has to end before the run activity
 *     gives its slot back without it and reports the worker unhealthy (default 10 s)
 * @param finishedLimit WorkItemFinished's limit (default and most 1 minute, its StartToClose
 *     timeout); past it the call is interrupted and its writes refused
 */
@ConfigurationProperties("jimflow.work-items")
public record WorkItemSettings(
    Integer slots, Duration watchInterval, Duration stopWait, Duration finishedLimit) {

  /** Execution slots per worker process when {@code jimflow.work-items.slots} is not set. */
  public static final int DEFAULT_SLOTS = 4;

  public WorkItemSettings {
    slots = slots == null ? DEFAULT_SLOTS : slots;
    if (slots < 1) {
      throw new IllegalArgumentException(
          "jimflow.work-items.slots must be at least 1, got " + slots);
    }
    watchInterval = watchInterval == null ? Duration.ofSeconds(2) : watchInterval;
    stopWait = stopWait == null ? WorkItemActivitiesImpl.DEFAULT_STOP_WAIT : stopWait;
    finishedLimit = finishedLimit == null ? WorkItemActivitiesImpl.FINISHED_LIMIT : finishedLimit;
    if (stopWait.isNegative() || stopWait.isZero()) {
      throw new IllegalArgumentException(
          "jimflow.work-items.stop-wait must be positive, got " + stopWait);
    }
    if (finishedLimit.isNegative()
        || finishedLimit.isZero()
        || finishedLimit.compareTo(WorkItemActivitiesImpl.FINISHED_LIMIT) > 0) {
      throw new IllegalArgumentException(
          "jimflow.work-items.finished-limit must lie between 0 and "
              + WorkItemActivitiesImpl.FINISHED_LIMIT
              + " (WorkItemFinished's StartToClose timeout), got "
              + finishedLimit);
    }
  }
}
