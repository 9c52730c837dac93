package io.jimflow.dataplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.dataplane.ThresholdDecision.Crossing;
import io.jimflow.dataplane.config.SafetyThresholds;
import io.jimflow.dataplane.config.Threshold;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ThresholdDecisionTest {

  static final SafetyThresholds DEFAULTS = SafetyThresholds.DEFAULTS;

  @ParameterizedTest(name = "{0} of {1} absent: held {2}")
  @CsvSource({
    // An empty or truncated source: always held, whatever the size.
    "10000, 10000, true",
    "3, 3, true",
    "1, 1, true",
    "9990, 10000, true",
    // Above 10% (and the floor of 10), or above 500.
    "1001, 10000, true",
    "501, 100000, true",
    // Routine leavers.
    "400, 10000, false",
    "500, 100000, false",
    "2, 3, false",
    "10, 20, false",
    "0, 10000, false",
    "0, 0, false"
  })
  void aFullImportHoldsBeforeMarkingTooManyObjectsAbsent(long absent, long total, boolean held) {
    assertThat(ThresholdDecision.absent(absent, total, DEFAULTS, List.of()).isPresent())
        .isEqualTo(held);
  }

  @ParameterizedTest(name = "{0} deletions, {1} updates of {2}: {3}")
  @CsvSource({
    "0, 0, 10000, ''",
    "500, 2000, 100000, ''",
    "501, 0, 100000, would delete",
    "0, 2001, 100000, would update",
    "1001, 0, 10000, would delete",
    "0, 5001, 10000, would update",
    "11, 0, 100, would delete",
    "10, 10, 20, ''",
    "600, 10000, 10000, would delete|would update"
  })
  void anExportHoldsAboveItsDeletionOrUpdateThreshold(
      long deletions, long updates, long total, String actions) {
    List<Crossing> crossings =
        ThresholdDecision.export(deletions, updates, total, DEFAULTS, List.of(), List.of());
    assertThat(String.join("|", crossings.stream().map(Crossing::action).toList()))
        .isEqualTo(actions);
  }

  @ParameterizedTest
  @CsvSource({"0, 0.0, 1, 1000, true", "11, 1.0, 11, 11, false", "1000000, 1.0, 5, 5, false"})
  void aThresholdIsCrossedAboveItsCountOrAboveItsShareBeyondTheFloor(
      long count, double share, long changes, long total, boolean crossed) {
    assertThat(new Threshold(count, share).crossedBy(changes, total)).isEqualTo(crossed);
  }

  @org.junit.jupiter.api.Test
  void aHoldSaysWhatWouldHappenToHowManyOfHowManyTheThresholdAndASample() {
    Optional<Crossing> crossing =
        ThresholdDecision.absent(10_000, 10_000, DEFAULTS, List.of("E1", "E2", "E3"));
    assertThat(crossing.orElseThrow().describe("HR System"))
        .isEqualTo(
            "would mark absent 10000 of 10000 objects of HR System (100%), above the threshold of"
                + " 500 or 10%; e.g. E1, E2, E3 and 9997 more");
  }
}
