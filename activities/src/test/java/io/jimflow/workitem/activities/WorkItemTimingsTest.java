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

  @Test
  void theMaximumRunTimeIsADayUnlessSetAndMustBePositive() {
    assertThat(new WorkItemTimings(null, null, null).maxRunTime()).isEqualTo(Duration.ofHours(24));
    assertThatThrownBy(() -> new WorkItemTimings(null, null, null, Duration.ZERO))
        .hasMessageContaining("jimflow.work-items.max-run-time must be positive");
  }
}
