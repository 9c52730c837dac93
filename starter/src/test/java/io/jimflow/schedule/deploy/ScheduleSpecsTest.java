package io.jimflow.schedule.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.Trigger;
import io.temporal.client.schedules.ScheduleCalendarSpec;
import io.temporal.client.schedules.ScheduleIntervalSpec;
import io.temporal.client.schedules.ScheduleRange;
import io.temporal.client.schedules.ScheduleSpec;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ScheduleSpecsTest {

  @Test
  void noTriggerGivesAnEmptySpecThatOnlyFiresWhenTriggeredByHand() {
    ScheduleSpec spec = ScheduleSpecs.of(null);

    assertThat(spec.getCronExpressions()).isNullOrEmpty();
    assertThat(spec.getCalendars()).isNullOrEmpty();
    assertThat(spec.getIntervals()).isNullOrEmpty();
  }

  @Test
  void cronExpressionsArePassedOnWithTheTimeZone() {
    ScheduleSpec spec =
        ScheduleSpecs.of(
            new Trigger(List.of("0 2 * * *", "30 14 * * MON-FRI"), null, null, "Europe/London"));

    assertThat(spec.getCronExpressions()).containsExactly("0 2 * * *", "30 14 * * MON-FRI");
    assertThat(spec.getTimeZoneName()).isEqualTo("Europe/London");
  }

  @Test
  void aTriggerWithoutTimeZoneRunsInUtc() {
    assertThat(
            ScheduleSpecs.of(new Trigger(List.of("0 2 * * *"), null, null, null)).getTimeZoneName())
        .isEqualTo("UTC");
  }

  @Test
  void specificTimesFireAtEachExactMinuteOnTheChosenDays() {
    ScheduleSpec spec =
        ScheduleSpecs.of(
            new Trigger(
                null,
                new Trigger.SpecificTimes(
                    List.of(DayOfWeek.MONDAY, DayOfWeek.SUNDAY),
                    List.of(LocalTime.of(2, 0), LocalTime.of(14, 0), LocalTime.of(14, 45))),
                null,
                "America/New_York"));

    assertThat(spec.getTimeZoneName()).isEqualTo("America/New_York");
    assertThat(firingTimes(spec)).containsExactly("02:00", "14:00", "14:45");
    // Temporal counts days of the week from Sunday = 0.
    assertThat(spec.getCalendars())
        .allSatisfy(
            c -> {
              assertThat(c.getDayOfWeek())
                  .containsExactly(new ScheduleRange(0), new ScheduleRange(1));
              assertThat(c.getSeconds()).containsExactly(new ScheduleRange(0));
            });
  }

  @Test
  void specificTimesWithoutDaysFireEveryDay() {
    ScheduleSpec spec =
        ScheduleSpecs.of(
            new Trigger(
                null,
                new Trigger.SpecificTimes(List.of(), List.of(LocalTime.of(6, 30))),
                null,
                null));

    assertThat(spec.getCalendars())
        .singleElement()
        .satisfies(c -> assertThat(c.getDayOfWeek()).isEqualTo(ScheduleCalendarSpec.ALL_WEEK_DAYS));
  }

  @Test
  void aPlainIntervalBecomesAnIntervalSpec() {
    ScheduleSpec minutes =
        ScheduleSpecs.of(
            new Trigger(null, null, new Trigger.Interval(5, null, null, null, null), null));
    ScheduleSpec hours =
        ScheduleSpecs.of(
            new Trigger(null, null, new Trigger.Interval(null, 6, null, null, null), null));

    assertThat(minutes.getIntervals())
        .containsExactly(new ScheduleIntervalSpec(Duration.ofMinutes(5)));
    assertThat(minutes.getCalendars()).isEmpty();
    assertThat(hours.getIntervals()).containsExactly(new ScheduleIntervalSpec(Duration.ofHours(6)));
  }

  @Test
  void anIntervalWithinADailyWindowFiresOnlyInsideTheWindowOnTheChosenDays() {
    ScheduleSpec spec =
        ScheduleSpecs.of(
            new Trigger(
                null,
                null,
                new Trigger.Interval(
                    30,
                    null,
                    LocalTime.of(8, 0),
                    LocalTime.of(18, 0),
                    List.of(
                        DayOfWeek.MONDAY,
                        DayOfWeek.TUESDAY,
                        DayOfWeek.WEDNESDAY,
                        DayOfWeek.THURSDAY,
                        DayOfWeek.FRIDAY)),
                "Europe/London"));

    assertThat(spec.getIntervals()).isEmpty();
    assertThat(spec.getCalendars())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.getHour()).containsExactly(new ScheduleRange(8, 17, 1));
              assertThat(c.getMinutes())
                  .containsExactly(new ScheduleRange(0), new ScheduleRange(30));
              assertThat(c.getDayOfWeek()).containsExactly(new ScheduleRange(1, 5, 1));
              assertThat(c.getComment())
                  .isEqualTo("every 30 min from 08:00 to 18:00 on MON,TUE,WED,THU,FRI");
            });
    assertThat(spec.getTimeZoneName()).isEqualTo("Europe/London");
  }

  @Test
  void anIntervalThatDoesNotDivideAnHourStillFiresAtExactlyTheRightMinutes() {
    ScheduleSpec spec =
        ScheduleSpecs.of(
            new Trigger(
                null,
                null,
                new Trigger.Interval(45, null, LocalTime.of(8, 0), LocalTime.of(12, 0), null),
                null));

    // 08:00 08:45 09:30 10:15 11:00 11:45
    assertThat(firingTimes(spec))
        .containsExactly("08:00", "08:45", "09:30", "10:15", "11:00", "11:45");
  }

  @Test
  void anHourlyIntervalOnChosenDaysRestartsAtMidnight() {
    ScheduleSpec spec =
        ScheduleSpecs.of(
            new Trigger(
                null,
                null,
                new Trigger.Interval(null, 5, null, null, List.of(DayOfWeek.SATURDAY)),
                null));

    assertThat(firingTimes(spec)).containsExactly("00:00", "05:00", "10:00", "15:00", "20:00");
    assertThat(spec.getCalendars())
        .allSatisfy(c -> assertThat(c.getDayOfWeek()).containsExactly(new ScheduleRange(6)));
  }

  @Test
  void regularValuesCollapseIntoSteppedRanges() {
    assertThat(ScheduleSpecs.ranges(new TreeSet<>(List.of(0, 15, 30, 45))))
        .containsExactly(new ScheduleRange(0, 45, 15));
    assertThat(ScheduleSpecs.ranges(new TreeSet<>(List.of(1, 2, 3, 7, 9))))
        .containsExactly(new ScheduleRange(1, 3, 1), new ScheduleRange(7), new ScheduleRange(9));
  }

  /** Every HH:mm a spec's calendars fire at, ignoring days, sorted. */
  private static List<String> firingTimes(ScheduleSpec spec) {
    TreeSet<String> times = new TreeSet<>();
    for (ScheduleCalendarSpec c : spec.getCalendars()) {
      for (int h : expand(c.getHour())) {
        for (int m : expand(c.getMinutes())) {
          times.add(String.format("%02d:%02d", h, m));
        }
      }
    }
    return List.copyOf(times);
  }

  private static List<Integer> expand(List<ScheduleRange> ranges) {
    List<Integer> values = new java.util.ArrayList<>();
    for (ScheduleRange r : ranges) {
      int end = Math.max(r.getEnd(), r.getStart());
      int step = Math.max(r.getStep(), 1);
      for (int v = r.getStart(); v <= end; v += step) {
        values.add(v);
      }
    }
    return values;
  }
}
