package io.jimflow.workitem;

import java.time.Duration;
import java.time.Instant;

/**
 * Maps seed 003's priority (earlier planned start first, then shorter expected run time) onto
 * Temporal priority keys 1 (first) to 5 (last) for the run activity.
 *
 * <p>Temporal dispatches a lower key strictly before a higher one and tasks of one key in the order
 * they were scheduled. A run is scheduled the moment its item becomes due, so within a key the
 * queue already follows planned start. Keys add the two cases order of arrival gets wrong: an item
 * that became due long after its planned start (it waited for a predecessor or for a worker) goes
 * first, and among the rest shorter expected run times go before longer ones. See
 * docs/work-items.md for the limits.
 */
public final class WorkItemPriority {

  /**
   * An item queued this much after its planned start is treated as overdue and dispatched first.
   */
  public static final Duration OVERDUE = Duration.ofMinutes(5);

  private WorkItemPriority() {}

  /** The priority key for a run queued at {@code now}. */
  public static int keyFor(Instant plannedStart, Instant now, Duration expectedRunTime) {
    if (plannedStart != null && Duration.between(plannedStart, now).compareTo(OVERDUE) > 0) {
      return 1;
    }
    if (expectedRunTime.compareTo(Duration.ofMinutes(1)) <= 0) {
      return 2;
    }
    if (expectedRunTime.compareTo(Duration.ofMinutes(10)) <= 0) {
      return 3;
    }
    if (expectedRunTime.compareTo(Duration.ofHours(1)) <= 0) {
      return 4;
    }
    return 5;
  }
}
