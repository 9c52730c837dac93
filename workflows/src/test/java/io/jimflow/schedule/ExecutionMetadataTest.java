package io.jimflow.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepDefinition.RunProfileStep;
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
                        ? new StepDefinition(
                            0,
                            "Import",
                            new RunProfileStep("HR", "Full Import"),
                            null,
                            null,
                            null,
                            null,
                            null)
                        : new StepDefinition(
                            1,
                            "Step " + i,
                            null,
                            new ExecutableStep("count.sh", List.of("1"), null, null),
                            null,
                            null,
                            null,
                            null))
            .toList();
    return new ScheduleDefinition(
        "nightly",
        "Nightly HR Sync",
        "Imports HR every night.",
        true,
        null,
        null,
        null,
        null,
        list);
  }
}
