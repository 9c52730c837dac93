package io.jimflow.workitem.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which runs a worker takes on: a spec's run time against the worker's maximum. */
class WorkItemTimingsTest {

  @ParameterizedTest(name = "run bound {0}, worker maximum {1} -> {2}")
  @CsvSource(
      nullValues = "null",
      value = {
        // the run bound is maxRunTime + gracePeriod + 10 s, as the work manager sets it
        "PT1H1M10S, PT24H, null",
        "PT24H10S,  PT24H, null",
        "PT24H11S,  PT24H, maxRunTime + gracePeriod 1d1s is above this worker's maximum run time"
            + " 1d (jimflow.work-items.max-run-time): not run",
        "P7DT1M10S, PT6H,  maxRunTime + gracePeriod 7d1m is above this worker's maximum run time"
            + " 6h (jimflow.work-items.max-run-time): not run",
        "PT0S,      PT6H,  null"
      })
  void aRunLongerThanTheWorkersMaximumIsRefused(Duration runBound, Duration maximum, String why) {
    WorkItemTimings timings = new WorkItemTimings(null, null, null, maximum);

    assertThat(timings.refusal(runBound).orElse(null)).isEqualTo(why);
  }

  @ParameterizedTest(name = "maxRestarts {0}, retryDelay {1} on a worker allowing 5 and 1h -> {2}")
  @CsvSource(
      nullValues = "null",
      value = {
        "3,          PT10S,   null",
        "5,          PT1H,    null",
        "-1,         null,    null",
        "6,          PT10S,   maxRestarts 6 is above this worker's maximum 5"
            + " (jimflow.work-items.max-restarts): not run",
        "2147483647, PT10S,   maxRestarts 2147483647 is above this worker's maximum 5"
            + " (jimflow.work-items.max-restarts): not run",
        "0,          PT1H0.001S, retryDelay 1h1ms is above this worker's maximum 1h"
            + " (jimflow.work-items.max-retry-delay): not run",
        "0,          P3650D,  retryDelay 3650d is above this worker's maximum 1h"
            + " (jimflow.work-items.max-retry-delay): not run"
      })
  void moreRestartsOrALongerRetryDelayThanTheWorkersMaximaAreRefused(
      int restarts, Duration retryDelay, String why) {
    WorkItemTimings timings = new WorkItemTimings(null, null, null, null, 5, Duration.ofHours(1));

    assertThat(timings.refusal(Duration.ofMinutes(2), restarts, retryDelay).orElse(null))
        .isEqualTo(why);
  }

  @Test
  void theRestartAndRetryDelayMaximaHaveDefaultsAndMustMakeSense() {
    WorkItemTimings defaults = new WorkItemTimings(null, null, null);
    assertThat(defaults.maxRestarts()).isEqualTo(100);
    assertThat(defaults.maxRetryDelay()).isEqualTo(Duration.ofHours(24));
    assertThatThrownBy(() -> new WorkItemTimings(null, null, null, null, -1, null))
        .hasMessageContaining("jimflow.work-items.max-restarts must be 0 or more, got -1");
    assertThatThrownBy(() -> new WorkItemTimings(null, null, null, null, null, Duration.ZERO))
        .hasMessageContaining("jimflow.work-items.max-retry-delay must be positive");
  }

  @Test
  void theMaximumRunTimeIsADayUnlessSetAndMustBePositive() {
    assertThat(new WorkItemTimings(null, null, null).maxRunTime()).isEqualTo(Duration.ofHours(24));
    assertThatThrownBy(() -> new WorkItemTimings(null, null, null, Duration.ZERO))
        .hasMessageContaining("jimflow.work-items.max-run-time must be positive");
  }
}
