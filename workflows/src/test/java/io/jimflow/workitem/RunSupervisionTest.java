package io.jimflow.workitem;

import static io.jimflow.workitem.RunSupervision.Action.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.workitem.RunSupervision.Action;
import io.jimflow.workitem.RunSupervision.Decision;
import io.jimflow.workitem.RunSupervision.Watch;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RunSupervisionTest {

  private static final Instant STARTED = Instant.parse("2026-01-05T08:00:00Z");
  private static final Duration MAX_RUN = Duration.ofMinutes(30);
  private static final Duration GRACE = Duration.ofMinutes(5);

  /**
   * One row per situation: the state, minutes since the run started, minutes since the grace period
   * started (empty: none runs), the pending requests, and what supervision does then.
   */
  @ParameterizedTest(name = "{0} at +{1} min, grace since {2}, cancel {3}, shutdown {4} → {5}")
  @CsvSource(
      nullValues = "-",
      value = {
        // running, nothing asked: wait for the max run time
        "Running,            0,  -, false, false, WAIT",
        "Running,           29,  -, false, false, WAIT",
        // max run time reached, on the minute and later
        "Running,           30,  -, false, false, ASK_TO_FINISH_MAX_RUN_TIME",
        "Running,           95,  -, false, false, ASK_TO_FINISH_MAX_RUN_TIME",
        // a user's cancel wins over the max run time, which wins over a shutdown
        "Running,           10,  -, true,  false, ASK_TO_FINISH_CANCELLED",
        "Running,           30,  -, true,  true,  ASK_TO_FINISH_CANCELLED",
        "Running,           30,  -, false, true,  ASK_TO_FINISH_MAX_RUN_TIME",
        "Running,           10,  -, false, true,  ASK_TO_FINISH_SHUTDOWN",
        // asked to finish: wait through the grace period, then abandon
        "CancellingBySystem, 31, 30, false, false, WAIT",
        "CancellingBySystem, 35, 30, false, false, ABANDON",
        "CancellingByUser,   14, 10, true,  false, WAIT",
        "CancellingByUser,   15, 10, true,  false, ABANDON",
        // a cancel also reaches an item already ending for its max run time or a shutdown
        "CancellingBySystem, 31, 30, true,  true,  ASK_TO_FINISH_CANCELLED",
        "ShutdownRequest,    40,  -, true,  true,  ASK_TO_FINISH_CANCELLED",
        // other requests that arrive while already ending are not delivered again
        "CancellingBySystem, 31, 30, false, true,  WAIT",
        "ShutdownRequest,    40,  -, false, true,  WAIT",
      })
  void theNextStepFollowsTheSupervisionRules(
      WorkItemState state,
      long minutes,
      Long graceSince,
      boolean cancel,
      boolean shutdown,
      Action expected) {
    Instant graceEnds = graceSince == null ? null : STARTED.plus(minutes(graceSince)).plus(GRACE);
    Watch watch = new Watch(state, STARTED.plus(MAX_RUN), graceEnds, cancel, shutdown);

    assertThat(RunSupervision.next(watch, STARTED.plus(minutes(minutes))).action())
        .isEqualTo(expected);
  }

  @Test
  void aRunningItemSleepsUntilItsMaxRunTimeAndAnItemBeingAskedUntilItsGraceEnds() {
    Instant maxRunEnds = STARTED.plus(MAX_RUN);
    Instant graceEnds = maxRunEnds.plus(GRACE);

    assertThat(
            RunSupervision.next(
                new Watch(WorkItemState.Running, maxRunEnds, null, false, false), STARTED))
        .isEqualTo(new Decision(WAIT, maxRunEnds));
    assertThat(
            RunSupervision.next(
                new Watch(WorkItemState.CancellingBySystem, maxRunEnds, graceEnds, false, false),
                maxRunEnds))
        .isEqualTo(new Decision(WAIT, graceEnds));
  }

  @Test
  void anItemShuttingDownHasNoDeadlineAndWaitsForItsRunToReturn() {
    Watch watch =
        new Watch(WorkItemState.ShutdownRequest, STARTED.plus(MAX_RUN), null, false, true);

    assertThat(RunSupervision.next(watch, STARTED.plus(Duration.ofDays(2))))
        .isEqualTo(new Decision(WAIT, null));
  }

  @Test
  void executionsBegunBeforeTheCancelRuleKeepAskingOnlyARunningItem() {
    Instant maxRunEnds = STARTED.plus(MAX_RUN);
    for (WorkItemState ending :
        new WorkItemState[] {WorkItemState.ShutdownRequest, WorkItemState.CancellingBySystem}) {
      Watch earlier = new Watch(ending, maxRunEnds, null, true, true, false);
      assertThat(earlier.cancelToDeliver()).as(ending.name()).isFalse();
      assertThat(RunSupervision.next(earlier, maxRunEnds.plus(GRACE.dividedBy(2))).action())
          .as(ending.name())
          .isEqualTo(WAIT);
    }
    assertThat(
            RunSupervision.next(
                    new Watch(WorkItemState.Running, maxRunEnds, null, true, false, false), STARTED)
                .action())
        .isEqualTo(ASK_TO_FINISH_CANCELLED);
  }

  @Test
  void askingToFinishForACancelOrTheMaxRunTimeStartsTheGracePeriodAndAShutdownDoesNot() {
    assertThat(ASK_TO_FINISH_CANCELLED.startsGrace()).isTrue();
    assertThat(ASK_TO_FINISH_MAX_RUN_TIME.startsGrace()).isTrue();
    assertThat(ASK_TO_FINISH_SHUTDOWN.startsGrace()).isFalse();
    assertThat(ASK_TO_FINISH_CANCELLED.event()).isEqualTo(WorkItemEvent.CANCEL_REQUESTED);
    assertThat(ASK_TO_FINISH_MAX_RUN_TIME.event()).isEqualTo(WorkItemEvent.MAX_RUN_TIME_REACHED);
    assertThat(ASK_TO_FINISH_SHUTDOWN.event()).isEqualTo(WorkItemEvent.SHUTDOWN_REQUESTED);
    assertThat(ABANDON.event()).isEqualTo(WorkItemEvent.GRACE_EXPIRED);
  }

  @Test
  void eachRequestToFinishIsLoggedWithItsReason() {
    assertThat(ASK_TO_FINISH_CANCELLED.note("no longer needed", MAX_RUN))
        .isEqualTo("no longer needed");
    assertThat(ASK_TO_FINISH_MAX_RUN_TIME.note(null, MAX_RUN))
        .isEqualTo("max run time PT30M reached");
    assertThat(ASK_TO_FINISH_SHUTDOWN.note(null, MAX_RUN)).isEqualTo("worker is shutting down");
  }

  private static Duration minutes(long m) {
    return Duration.ofMinutes(m);
  }
}
