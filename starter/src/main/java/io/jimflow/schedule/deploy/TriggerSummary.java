package io.jimflow.schedule.deploy;

import io.jimflow.schedule.Trigger;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** A one-line, human description of a trigger, as listings show it. */
public final class TriggerSummary {

  private TriggerSummary() {}

  /** E.g. {@code cron "0 2 * * *"; at 02:00,14:30 on MON,FRI; every 30 min 08:00-18:00}. */
  public static String of(Trigger trigger) {
    if (trigger == null) {
      return "manual only";
    }
    List<String> parts = new ArrayList<>();
    trigger.cron().forEach(c -> parts.add("cron \"" + c + "\""));
    if (trigger.at() != null) {
      parts.add(
          "at "
              + trigger.at().times().stream()
                  .map(LocalTime::toString)
                  .collect(Collectors.joining(","))
              + onDays(trigger.at().days()));
    }
    if (trigger.every() != null) {
      Trigger.Interval every = trigger.every();
      String window =
          every.from() == null && every.to() == null
              ? ""
              : " "
                  + (every.from() == null ? "00:00" : every.from())
                  + "-"
                  + (every.to() == null ? "24:00" : every.to());
      parts.add(
          "every "
              + (every.minutes() != null ? every.minutes() + " min" : every.hours() + " h")
              + window
              + onDays(every.days()));
    }
    return String.join("; ", parts);
  }

  private static String onDays(List<java.time.DayOfWeek> days) {
    return days.isEmpty() ? "" : " on " + ScheduleSpecs.days(days);
  }
}
