package io.jimflow.metrics;

import io.jimflow.schedule.Notification;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tells, from one reading of the schedules to the next, which schedules skipped or missed runs
 * meanwhile. The first reading is the baseline: what a schedule skipped before this worker started
 * is no news. Not thread-safe (one refresher).
 */
public final class ScheduleAlarms {

  private final Map<String, long[]> seen = new HashMap<>();

  /**
   * The notifications the change since the last reading calls for, each with a key that names it
   * for good (schedule, event, count), so that several workers noticing the same change send it
   * once.
   */
  public List<Alarm> changes(List<ScheduleState> states) {
    List<Alarm> alarms = new ArrayList<>();
    for (ScheduleState state : states) {
      long[] before = seen.put(state.id(), new long[] {state.skipped(), state.missed()});
      if (before == null) {
        continue;
      }
      if (state.skipped() > before[0]) {
        alarms.add(
            alarm(
                state,
                Notification.Event.RunsSkipped,
                state.skipped() - before[0],
                state.skipped()));
      }
      if (state.missed() > before[1]) {
        alarms.add(
            alarm(
                state, Notification.Event.RunsMissed, state.missed() - before[1], state.missed()));
      }
    }
    return alarms;
  }

  private static Alarm alarm(ScheduleState state, Notification.Event event, long more, long total) {
    String what = event == Notification.Event.RunsSkipped ? "skipped" : "missed";
    return new Alarm(
        state.id() + "/" + what + "-" + total,
        new Notification(
            event,
            state.id(),
            state.name(),
            null,
            null,
            more
                + " more scheduled run(s) "
                + what
                + " ("
                + total
                + " since the schedule was created).",
            List.of(),
            state.notificationUrl()));
  }

  /**
   * @param key names this change for good: the same change noticed twice has the same key
   */
  public record Alarm(String key, Notification notification) {}
}
