package io.jimflow.schedule;

import java.time.DayOfWeek;
import java.time.LocalTime;
import java.util.List;

/**
 * When a schedule starts by itself. Any combination of the three forms may be given; each adds
 * start times. All times are read in {@link #timezone} (an IANA zone id, UTC if absent).
 *
 * @param cron standard five-field cron expressions
 * @param at specific times on chosen days of the week, each time exact to the minute
 * @param every a fixed interval, optionally only within a daily window and on chosen days
 */
public record Trigger(List<String> cron, SpecificTimes at, Interval every, String timezone) {

  public Trigger {
    cron = cron == null ? List.of() : List.copyOf(cron);
    timezone = timezone == null || timezone.isBlank() ? "UTC" : timezone;
  }

  /** Specific times of day on the given days (every day if {@code days} is empty). */
  public record SpecificTimes(List<DayOfWeek> days, List<LocalTime> times) {
    public SpecificTimes {
      days = days == null ? List.of() : List.copyOf(days);
      times = times == null ? List.of() : List.copyOf(times);
    }
  }

  /**
   * Every {@code minutes} or {@code hours} (exactly one of them), optionally only between {@code
   * from} (inclusive) and {@code to} (exclusive) each day, and only on {@code days} (every day if
   * empty).
   */
  public record Interval(
      Integer minutes, Integer hours, LocalTime from, LocalTime to, List<DayOfWeek> days) {
    public Interval {
      days = days == null ? List.of() : List.copyOf(days);
    }
  }
}
