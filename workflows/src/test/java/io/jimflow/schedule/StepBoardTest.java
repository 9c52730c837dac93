package io.jimflow.schedule;

import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepBoardTest {

  private static final Instant T0 = Instant.parse("2026-01-01T02:00:00Z");

  private final StepBoard board =
      new StepBoard(
          StepGroups.plan(
              List.of(
                  aStep(0, "import").build(),
                  aStep(1, "sync").build(),
                  aStep(1, "export").build())));

  @Test
  void aStepsOutcomeIsRecordedOnceAndLaterReportsChangeNothing() {
    board.started(0, T0);
    assertThat(board.finished(0, StepStatus.Complete, 1, T0.plusSeconds(5), "done", null)).isTrue();

    assertThat(board.finished(0, StepStatus.Cancelled, 1, T0.plusSeconds(9), "late cancel", null))
        .isFalse();
    assertThat(board.attemptStarted(0, 3)).isFalse();
    assertThat(board.get(0).status()).isEqualTo(StepStatus.Complete);
    assertThat(board.get(0).endedAt()).isEqualTo(T0.plusSeconds(5));
    assertThat(board.get(0).attempts()).isEqualTo(1);
  }

  @Test
  void aRunningStepShowsItsLatestAttempt() {
    board.started(1, T0);
    assertThat(board.attemptStarted(1, 2)).isTrue();
    assertThat(board.attemptStarted(1, 2)).isFalse();

    assertThat(board.get(1).status()).isEqualTo(StepStatus.Running);
    assertThat(board.get(1).attempts()).isEqualTo(2);
    assertThat(board.get(1).startedAt()).isEqualTo(T0);
  }

  @Test
  void stepsThatNeverStartedAreSkipped() {
    board.started(0, T0);
    board.finished(0, StepStatus.FailedWithError, 1, T0, "broken", null);

    assertThat(board.skipWaiting()).isEqualTo(2);
    assertThat(board.all())
        .extracting(StepOutcome::status)
        .containsExactly(StepStatus.FailedWithError, StepStatus.Skipped, StepStatus.Skipped);
  }

  @Test
  void theStepRailShowsTheGroupUnderWayAndEachStepsState() {
    board.started(0, T0);
    board.finished(0, StepStatus.Complete, 1, T0, "ok", null);
    board.started(1, T0);
    board.attemptStarted(1, 2);

    String rail = board.rail("Nightly HR Sync", ExecutionStatus.InProgress, 2, null);

    assertThat(rail)
        .contains("**Nightly HR Sync** · InProgress")
        .contains("Step group 2 of 2")
        .contains("0 · import — Complete")
        .contains("1 · sync — Running (attempt 2)")
        .contains("1 · export — Waiting");
  }

  @Test
  void aHeldStepsSampleFollowsItOnTheRailAsANestedList() {
    board.started(2, T0);
    board.awaitingApproval(
        2, "held: the export would update 9 of 9\n  - Update E1: title 'A' -> 'B'");

    String rail = board.rail("Nightly HR Sync", ExecutionStatus.InProgress, 2, null);

    assertThat(rail)
        .contains(
            "1 · export — AwaitingApproval (held: the export would update 9 of 9)\n"
                + "  - Update E1: title 'A' -> 'B'\n");
  }

  @Test
  void theStepRailOfAHugeScheduleCountsStepsPerGroup() {
    List<StepDefinition> steps = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      steps.add(aStep(i < 10 ? 0 : 1, "s" + i).build());
    }
    StepBoard huge = new StepBoard(StepGroups.plan(steps));
    for (int i = 0; i < 10; i++) {
      huge.started(i, T0);
      huge.finished(i, StepStatus.Complete, 1, T0, null, null);
    }
    huge.started(10, T0);

    String rail = huge.rail("Huge", ExecutionStatus.InProgress, 2, null);

    assertThat(rail)
        .contains("group 0: 10 steps — 10 Complete")
        .contains("group 1: 990 steps — 989 Waiting, 1 Running");
    assertThat(rail.lines().count()).isLessThan(10);
  }
}
