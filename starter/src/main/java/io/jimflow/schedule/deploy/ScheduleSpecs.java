package io.jimflow.schedule.deploy;

import io.jimflow.schedule.Trigger;
import io.temporal.client.schedules.ScheduleCalendarSpec;
import io.temporal.client.schedules.ScheduleIntervalSpec;
import io.temporal.client.schedules.ScheduleRange;
import io.temporal.client.schedules.ScheduleSpec;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Turns a {@link Trigger} into a Temporal {@link ScheduleSpec}: cron expressions as they are,
 * specific times and windowed intervals as calendar specs that fire at exactly those minutes, plain
 * intervals as interval specs, all read in the trigger's time zone.
 */
public final class ScheduleSpecs {

  private static final int MINUTES_PER_DAY = 24 * 60;

  private ScheduleSpecs() {}

  /** The spec of a trigger; an empty spec (fires only when triggered by hand) for {@code null}. */
  public static ScheduleSpec of(Trigger trigger) {
    ScheduleSpec.Builder spec = ScheduleSpec.newBuilder();
    if (trigger == null) {
      return spec.build();
    }
    List<ScheduleCalendarSpec> calendars = new ArrayList<>();
    List<ScheduleIntervalSpec> intervals = new ArrayList<>();
    if (trigger.at() != null) {
      calendars.addAll(specificTimes(trigger.at()));
    }
    if (trigger.every() != null) {
      Trigger.Interval every = trigger.every();
      Duration step =
          every.minutes() != null
              ? Duration.ofMinutes(every.minutes())
              : Duration.ofHours(every.hours());
      if (every.from() == null && every.to() == null && every.days().isEmpty()) {
        intervals.add(new ScheduleIntervalSpec(step));
      } else {
        calendars.addAll(window(every, (int) step.toMinutes()));
      }
    }
    return spec.setCronExpressions(trigger.cron())
        .setCalendars(calendars)
        .setIntervals(intervals)
        .setTimeZoneName(trigger.timezone())
        .build();
  }

  private static List<ScheduleCalendarSpec> specificTimes(Trigger.SpecificTimes at) {
    List<Integer> minutesOfDay = at.times().stream().map(ScheduleSpecs::minuteOfDay).toList();
    return calendars(minutesOfDay, at.days(), "at " + times(at.times()));
  }

  private static List<ScheduleCalendarSpec> window(Trigger.Interval every, int stepMinutes) {
    int from = every.from() == null ? 0 : minuteOfDay(every.from());
    int to = every.to() == null ? MINUTES_PER_DAY : minuteOfDay(every.to());
    List<Integer> minutesOfDay = new ArrayList<>();
    // The window restarts each day at `from`, as an operator reading "every 45 minutes from 08:00"
    // expects, rather than drifting across midnight.
    for (int m = from; m < to; m += stepMinutes) {
      minutesOfDay.add(m);
    }
    String comment =
        "every "
            + (every.minutes() != null ? every.minutes() + " min" : every.hours() + " h")
            + (every.from() == null && every.to() == null
                ? ""
                : " from "
                    + LocalTime.ofSecondOfDay(from * 60L)
                    + " to "
                    + (to == MINUTES_PER_DAY ? "24:00" : LocalTime.ofSecondOfDay(to * 60L)));
    return calendars(minutesOfDay, every.days(), comment);
  }

  /**
   * Calendar specs that fire at exactly the given minutes of the day: hours sharing the same set of
   * minutes share one spec, so a regular pattern stays one readable spec in the Temporal UI.
   */
  private static List<ScheduleCalendarSpec> calendars(
      List<Integer> minutesOfDay, List<DayOfWeek> days, String comment) {
    Map<Integer, SortedSet<Integer>> minutesByHour = new TreeMap<>();
    for (int m : minutesOfDay) {
      minutesByHour.computeIfAbsent(m / 60, h -> new TreeSet<>()).add(m % 60);
    }
    Map<SortedSet<Integer>, SortedSet<Integer>> hoursByMinutes = new java.util.LinkedHashMap<>();
    minutesByHour.forEach(
        (hour, minutes) -> hoursByMinutes.computeIfAbsent(minutes, k -> new TreeSet<>()).add(hour));
    List<ScheduleRange> dayRanges =
        days.isEmpty()
            ? ScheduleCalendarSpec.ALL_WEEK_DAYS
            : ranges(
                days.stream()
                    .map(d -> d.getValue() % 7)
                    .collect(Collectors.toCollection(TreeSet::new)));
    List<ScheduleCalendarSpec> calendars = new ArrayList<>();
    hoursByMinutes.forEach(
        (minutes, hours) ->
            calendars.add(
                ScheduleCalendarSpec.newBuilder()
                    .setSeconds(ScheduleCalendarSpec.BEGINNING)
                    .setMinutes(ranges(minutes))
                    .setHour(ranges(hours))
                    .setDayOfMonth(ScheduleCalendarSpec.ALL_MONTH_DAYS)
                    .setMonth(ScheduleCalendarSpec.ALL_MONTHS)
                    .setDayOfWeek(dayRanges)
                    .setComment(comment + (days.isEmpty() ? "" : " on " + days(days)))
                    .build()));
    return calendars;
  }

  /** The fewest ranges covering exactly these values: runs of three or more with one step merge. */
  static List<ScheduleRange> ranges(SortedSet<Integer> values) {
    List<Integer> list = new ArrayList<>(values);
    List<ScheduleRange> ranges = new ArrayList<>();
    int i = 0;
    while (i < list.size()) {
      int j = i;
      if (i + 2 < list.size()) {
        int step = list.get(i + 1) - list.get(i);
        while (j + 1 < list.size() && list.get(j + 1) - list.get(j) == step) {
          j++;
        }
        if (j - i >= 2) {
          ranges.add(new ScheduleRange(list.get(i), list.get(j), step));
          i = j + 1;
          continue;
        }
      }
      ranges.add(new ScheduleRange(list.get(i)));
      i++;
    }
    return ranges;
  }

  private static int minuteOfDay(LocalTime time) {
    return time.getHour() * 60 + time.getMinute();
  }

  private static String times(List<LocalTime> times) {
    return times.stream().map(LocalTime::toString).collect(Collectors.joining(","));
  }

  static String days(List<DayOfWeek> days) {
    return days.stream().map(d -> d.name().substring(0, 3)).collect(Collectors.joining(","));
  }
}
