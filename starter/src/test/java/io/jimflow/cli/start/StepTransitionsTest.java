package io.jimflow.cli.start;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepTransitionsTest {

  private final StepTransitions transitions = new StepTransitions();

  @Test
  void eachChangeIsReportedOnceAndWaitingStepsStayQuiet() {
    assertThat(
            transitions.next(
                List.of(
                    step(0, "Import", StepStatus.Running, 1, null),
                    step(1, "Sync", StepStatus.Waiting, 0, null))))
        .containsExactly("  [0] Import: Running (attempt 1)");
    assertThat(
            transitions.next(
                List.of(
                    step(0, "Import", StepStatus.Running, 1, null),
                    step(1, "Sync", StepStatus.Waiting, 0, null))))
        .isEmpty();
    assertThat(
            transitions.next(
                List.of(
                    step(0, "Import", StepStatus.Running, 2, null),
                    step(1, "Sync", StepStatus.Waiting, 0, null))))
        .containsExactly("  [0] Import: Running (attempt 2)");
    assertThat(
            transitions.next(
                List.of(
                    step(0, "Import", StepStatus.Complete, 2, "ok"),
                    step(1, "Sync", StepStatus.Running, 1, null))))
        .containsExactly(
            "  [0] Import: Complete after 2 attempts - ok", "  [1] Sync: Running (attempt 1)");
  }

  @Test
  void aStepWaitingForAResourceSaysForWhichAndWhoHoldsItOnce() {
    String waits = "waiting for HR System, held by nightly/manual/1 since 2026-11-23T02:00:00Z";
    assertThat(transitions.next(List.of(step(0, "Import", StepStatus.Waiting, 0, waits))))
        .containsExactly("  [0] Import: Waiting - " + waits);
    assertThat(transitions.next(List.of(step(0, "Import", StepStatus.Waiting, 0, waits))))
        .isEmpty();
    assertThat(transitions.next(List.of(step(0, "Import", StepStatus.Running, 1, null))))
        .containsExactly("  [0] Import: Running (attempt 1)");
  }

  @Test
  void aMultiLineMessageIsShortenedToItsFirstLine() {
    assertThat(
            transitions.next(
                List.of(
                    step(3, "Script", StepStatus.FailedWithError, 1, "exit code 3\nstack\ntrace"))))
        .containsExactly("  [3] Script: FailedWithError - exit code 3 …");
  }

  private static StepOutcome step(
      int index, String name, StepStatus status, int attempts, String message) {
    return new StepOutcome(index, name, status, attempts, null, null, message, null);
  }
}
