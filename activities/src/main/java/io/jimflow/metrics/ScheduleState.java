package io.jimflow.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A deployed schedule as Temporal describes it: what the schedule gauges show and what tells that
 * it skipped or missed runs.
 *
 * @param nextRun null if it has none
 * @param lastScheduledRun the nominal time of the last run it started; null if none
 * @param interval the longest gap between its upcoming runs; null with fewer than two
 * @param skipped runs skipped since it was created (the previous run was still going)
 * @param missed runs missed since it was created (not started within the catch-up window)
 * @param name the schedule's name; its id when it runs no jimflow schedule definition
 * @param notificationUrl the schedule's own webhook; null for the worker's
 * @param runsExecutions whether it starts jimflow schedule executions (not maintenance)
 */
public record ScheduleState(
    String id,
    boolean paused,
    Instant createdAt,
    Instant nextRun,
    Instant lastScheduledRun,
    Duration interval,
    long skipped,
    long missed,
    String name,
    String notificationUrl,
    boolean runsExecutions) {

  /** The longest gap between consecutive times of {@code upcoming}; null with fewer than two. */
  public static Duration longestGap(List<Instant> upcoming) {
    Duration longest = null;
    for (int i = 1; i < upcoming.size(); i++) {
      Duration gap = Duration.between(upcoming.get(i - 1), upcoming.get(i));
      if (longest == null || gap.compareTo(longest) > 0) {
        longest = gap;
      }
    }
    return longest;
  }
}
