package io.jimflow.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.StepStatus;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StepOrderTest {

  record Step(int index, String name, StepStatus status) {}

  @ParameterizedTest
  @CsvSource({
    "FailedWithError, 0",
    "CompleteWithError, 1",
    "CompleteWithWarning, 2",
    "Complete, 2",
    "Cancelled, 2",
    "Skipped, 2",
    "Running, 2",
    "Waiting, 2",
  })
  void failuresRankFirstThenStepsThatCompletedWithErrors(StepStatus status, int rank) {
    assertThat(StepOrder.rank(status)).isEqualTo(rank);
  }

  @Test
  void withinEachGroupFailuresComeFirstAndTheRestKeepTheScheduleOrder() {
    List<Step> steps =
        List.of(
            new Step(1, "Count", StepStatus.Complete),
            new Step(1, "Tally", StepStatus.CompleteWithError),
            new Step(1, "Flaky Check", StepStatus.FailedWithError),
            new Step(1, "Audit", StepStatus.Complete),
            new Step(0, "Prepare", StepStatus.Complete),
            new Step(2, "Broken", StepStatus.FailedWithError),
            new Step(3, "Wrap Up", StepStatus.Skipped));

    List<Step> shown = StepOrder.failuresFirst(steps, Step::index, Step::status);

    assertThat(shown)
        .extracting(Step::name)
        .containsExactly("Prepare", "Flaky Check", "Tally", "Count", "Audit", "Broken", "Wrap Up");
    assertThat(steps.get(0).name()).as("the input is left as it is").isEqualTo("Count");
  }
}
