package io.jimflow.schedule;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.testing.ScheduleBuilders;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ExecutionMetadataTest {

  private static final Initiator ADA = new Initiator(InitiatorType.User, "ada", "Ada Lovelace");

  @Test
  void theSummaryNamesTheScheduleAndWhoStartedAManualRun() {
    assertThat(ExecutionMetadata.summary(schedule(2), ADA, TriggerKind.Manual))
        .isEqualTo("Nightly HR Sync · manual run by User Ada Lovelace");
    assertThat(
            ExecutionMetadata.summary(
                schedule(2),
                new Initiator(InitiatorType.Schedule, "nightly", "Nightly HR Sync"),
                TriggerKind.Scheduled))
        .isEqualTo("Nightly HR Sync · scheduled run");
  }

  @Test
  void theDetailsNameScheduleDescriptionTriggerInitiatorAndEveryStepWithWhatItRuns() {
    String details = ExecutionMetadata.details(schedule(2), ADA, TriggerKind.Manual);

    assertThat(details)
        .contains("**Schedule** `nightly` · Nightly HR Sync")
        .contains("Imports HR every night.")
        .contains("**Trigger** Manual · **Initiator** User Ada Lovelace (ada)")
        .contains("- 0 · Import · run profile HR / Full Import")
        .contains("- 1 · Step 1 · executable count.sh");
  }

  @Test
  void theDetailsOfAVeryLargeScheduleCountItsStepsInsteadOfListingThem() {
    String details = ExecutionMetadata.details(schedule(1_000), ADA, TriggerKind.Manual);

    assertThat(details).contains("**Steps** 1000").doesNotContain("Step 999");
  }

  private static ScheduleDefinition schedule(int steps) {
    List<StepDefinition> list =
        IntStream.range(0, steps)
            .mapToObj(
                i ->
                    i == 0
                        ? aStep(0, "Import").withStepDefaults().runProfile("HR", "Full Import")
                        : aStep(1, "Step " + i).withStepDefaults().executable("count.sh", "1"))
            .map(ScheduleBuilders.StepBuilder::build)
            .toList();
    return aSchedule("nightly")
        .named("Nightly HR Sync")
        .describedAs("Imports HR every night.")
        .withSteps(list)
        .definition();
  }
}
