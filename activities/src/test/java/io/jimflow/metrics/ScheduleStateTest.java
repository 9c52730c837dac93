package io.jimflow.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleStateTest {

  private static final Instant MONDAY_7 = Instant.parse("2026-11-30T07:00:00Z");

  @Test
  void theIntervalIsTheLongestGapBetweenUpcomingRuns() {
    record Case(List<Instant> upcoming, Duration expected) {}
    List<Case> cases =
        List.of(
            new Case(List.of(), null),
            new Case(List.of(MONDAY_7), null),
            new Case(
                List.of(MONDAY_7, MONDAY_7.plusSeconds(3600), MONDAY_7.plusSeconds(7200)),
                Duration.ofHours(1)),
            // Business hours: the night between two days is the longest gap.
            new Case(
                List.of(
                    MONDAY_7.plusSeconds(12 * 3600),
                    MONDAY_7.plusSeconds(13 * 3600),
                    MONDAY_7.plusSeconds(24 * 3600)),
                Duration.ofHours(11)));
    for (Case c : cases) {
      assertThat(ScheduleState.longestGap(c.upcoming()))
          .as("%s", c.upcoming())
          .isEqualTo(c.expected());
    }
  }
}
