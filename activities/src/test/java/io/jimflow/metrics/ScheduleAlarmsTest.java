package io.jimflow.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.Notification;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleAlarmsTest {

  private final ScheduleAlarms alarms = new ScheduleAlarms();

  @Test
  void whatASchedulesSkippedBeforeTheFirstReadingIsNoNews() {
    assertThat(alarms.changes(List.of(state("nightly", 4, 2)))).isEmpty();
    assertThat(alarms.changes(List.of(state("nightly", 4, 2)))).isEmpty();
  }

  @Test
  void skippedAndMissedRunsSinceTheLastReadingAreAlarmsWithAKeyForGood() {
    alarms.changes(List.of(state("nightly", 0, 0), state("hourly", 1, 0)));

    List<ScheduleAlarms.Alarm> changes =
        alarms.changes(List.of(state("nightly", 2, 0), state("hourly", 1, 1), state("new", 5, 5)));

    assertThat(changes)
        .extracting(ScheduleAlarms.Alarm::key)
        .containsExactly("nightly/skipped-2", "hourly/missed-1");
    assertThat(changes.get(0).notification().event()).isEqualTo(Notification.Event.RunsSkipped);
    assertThat(changes.get(0).notification().message())
        .startsWith("2 more scheduled run(s) skipped");
    assertThat(changes.get(0).notification().webhookUrl()).isEqualTo("https://hook/nightly");
    assertThat(changes.get(1).notification().event()).isEqualTo(Notification.Event.RunsMissed);
  }

  private static ScheduleState state(String id, long skipped, long missed) {
    return new ScheduleState(
        id, false, null, null, null, null, skipped, missed, id, "https://hook/" + id, true);
  }
}
