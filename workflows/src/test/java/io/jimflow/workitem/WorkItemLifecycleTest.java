package io.jimflow.workitem;

import static io.jimflow.workitem.WorkItemEvent.*;
import static io.jimflow.workitem.WorkItemState.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class WorkItemLifecycleTest {

  @Test
  void everyStateHasTheCategoryOfTheSeedTable() {
    Map<WorkItemCategory, Set<WorkItemState>> table =
        Map.of(
            WorkItemCategory.WAITING_FOR_START_CONDITION,
                EnumSet.of(WaitingForStart, WaitingForPredecessor, Suspended),
            WorkItemCategory.WAITING_FOR_EXECUTION, EnumSet.of(Queued, Removing),
            WorkItemCategory.RUNNING,
                EnumSet.of(Running, ShutdownRequest, CancellingBySystem, CancellingByUser),
            WorkItemCategory.ENDED,
                EnumSet.of(
                    Finished,
                    Removed,
                    ShutdownConfirmed,
                    Aborted,
                    Timeout,
                    Killed,
                    Cancelled,
                    Error),
            WorkItemCategory.RESTART,
                EnumSet.of(Reschedule, ShutdownRestart, AbortedRestart, TimeoutRetry, ErrorRetry));
    assertThat(WorkItemState.values()).hasSize(22);
    table.forEach(
        (category, states) ->
            assertThat(
                    EnumSet.allOf(WorkItemState.class).stream()
                        .filter(s -> s.category() == category))
                .as(category.label())
                .containsExactlyInAnyOrderElementsOf(states));
  }

  @ParameterizedTest(name = "{0} + {1} → {2}")
  @CsvSource({
    "WaitingForStart, START_TIME_REACHED, Queued",
    "WaitingForStart, PREDECESSOR_PENDING, WaitingForPredecessor",
    "WaitingForPredecessor, PREDECESSOR_ENDED, Queued",
    "WaitingForStart, START_TIME_CHANGED, WaitingForStart",
    "Suspended, START_TIME_CHANGED, WaitingForStart",
    "WaitingForPredecessor, START_TIME_CHANGED, WaitingForStart",
    "Queued, START_TIME_CHANGED, WaitingForStart",
    "WaitingForStart, REPLACED_SUSPENDED, Suspended",
    "Suspended, REPLACED_WITH_START_TIME, WaitingForStart",
    "Queued, REPLACED_WITH_START_TIME, WaitingForStart",
    "WaitingForStart, CANCEL_REQUESTED, Removing",
    "WaitingForPredecessor, CANCEL_REQUESTED, Removing",
    "Suspended, CANCEL_REQUESTED, Removing",
    "Queued, CANCEL_REQUESTED, Removing",
    "Removing, REMOVAL_CONFIRMED, Removed",
    "Queued, RUN_CLAIMED, Running",
    "Running, CANCEL_REQUESTED, CancellingByUser",
    "Running, MAX_RUN_TIME_REACHED, CancellingBySystem",
    "Running, SHUTDOWN_REQUESTED, ShutdownRequest",
    "Running, RUN_RETURNED, Finished",
    "Running, RUN_RETURNED_DONE, Finished",
    "Running, RUN_RETURNED_WITH_SUCCESSOR, Reschedule",
    "CancellingBySystem, RUN_RETURNED, Timeout",
    "CancellingBySystem, RUN_RETURNED_DONE, Finished",
    "CancellingBySystem, RUN_RETURNED_WITH_SUCCESSOR, Reschedule",
    "CancellingByUser, RUN_RETURNED, Cancelled",
    "CancellingByUser, RUN_RETURNED_WITH_SUCCESSOR, Cancelled",
    "ShutdownRequest, RUN_RETURNED, ShutdownConfirmed",
    "ShutdownRequest, RUN_RETURNED_WITH_SUCCESSOR, Reschedule",
    "Running, RUN_FAILED, Error",
    "CancellingBySystem, RUN_FAILED, Error",
    "Running, RUN_LOST, Aborted",
    "ShutdownRequest, RUN_LOST, Aborted",
    "CancellingBySystem, GRACE_EXPIRED, Killed",
    "CancellingByUser, GRACE_EXPIRED, Killed",
    "ShutdownRequest, GRACE_EXPIRED, Aborted",
    "ShutdownRequest, CANCEL_REQUESTED, CancellingByUser",
    "CancellingBySystem, CANCEL_REQUESTED, CancellingByUser",
    "ShutdownConfirmed, CANCEL_REQUESTED, Cancelled",
    "Aborted, CANCEL_REQUESTED, Cancelled",
    "Timeout, CANCEL_REQUESTED, Cancelled",
    "Error, CANCEL_REQUESTED, Cancelled",
  })
  void anEventLeadsToTheStateOfTheSeedGraph(
      WorkItemState from, WorkItemEvent event, WorkItemState to) {
    assertThat(WorkItemLifecycle.next(from, event)).contains(to);
    assertThat(WorkItemLifecycle.isAllowed(from, to)).isTrue();
  }

  @ParameterizedTest(name = "{0} + {1} does not apply")
  @CsvSource({
    "Running, START_TIME_CHANGED",
    "Running, REPLACED_WITH_START_TIME",
    "CancellingByUser, CANCEL_REQUESTED",
    "Removing, CANCEL_REQUESTED",
    "Finished, CANCEL_REQUESTED",
    "Killed, CANCEL_REQUESTED",
    "Cancelled, CANCEL_REQUESTED",
    "Reschedule, CANCEL_REQUESTED",
    "ErrorRetry, CANCEL_REQUESTED",
    "WaitingForStart, RUN_CLAIMED",
    "Removing, RUN_CLAIMED",
    "CancellingBySystem, MAX_RUN_TIME_REACHED",
    "Queued, RUN_RETURNED",
    "Finished, RUN_FAILED",
  })
  void anEventThatDoesNotApplyLeavesTheStateAlone(WorkItemState from, WorkItemEvent event) {
    assertThat(WorkItemLifecycle.next(from, event)).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(WorkItemState.class)
  void everyEventResultIsAnEdgeOfTheGraph(WorkItemState from) {
    for (WorkItemEvent event : WorkItemEvent.values()) {
      WorkItemLifecycle.next(from, event)
          .ifPresent(
              to ->
                  assertThat(WorkItemLifecycle.isAllowed(from, to))
                      .as(from + " + " + event)
                      .isTrue());
    }
  }

  /**
   * One row per state of seed 003 in which a cancel can arrive while the item runs or is about to
   * restart, and per way the run then ends: the item is asked to end cancelled (the handler's
   * chance to react) and ends Cancelled — never restarted. {@code -}: the run had already ended.
   */
  @ParameterizedTest(name = "cancel in {0}, then the run {1} → {2}")
  @CsvSource(
      nullValues = "-",
      value = {
        "Running,            RUN_RETURNED,                Cancelled",
        "Running,            RUN_RETURNED_WITH_SUCCESSOR, Cancelled",
        "Running,            RUN_RETURNED_DONE,           Finished",
        "Running,            GRACE_EXPIRED,               Killed",
        "ShutdownRequest,    RUN_RETURNED,                Cancelled",
        "ShutdownRequest,    RUN_RETURNED_WITH_SUCCESSOR, Cancelled",
        "ShutdownRequest,    RUN_FAILED,                  Cancelled",
        "ShutdownRequest,    RUN_LOST,                    Cancelled",
        "CancellingBySystem, RUN_RETURNED,                Cancelled",
        "CancellingBySystem, RUN_RETURNED_WITH_SUCCESSOR, Cancelled",
        "CancellingBySystem, RUN_FAILED,                  Cancelled",
        "CancellingByUser,   RUN_FAILED,                  Cancelled",
        "CancellingByUser,   RUN_LOST,                    Cancelled",
        "CancellingByUser,   RUN_RETURNED,                Cancelled",
        "ShutdownConfirmed,  -,                           Cancelled",
        "Aborted,            -,                           Cancelled",
        "Timeout,            -,                           Cancelled",
        "Error,              -,                           Cancelled",
      })
  void aCancelInARunningOrRestartBoundStateEndsTheItemAndNeverRestartsIt(
      WorkItemState arrivesIn, WorkItemEvent runEnds, WorkItemState end) {
    WorkItemState state = WorkItemLifecycle.next(arrivesIn, CANCEL_REQUESTED).orElse(arrivesIn);
    if (runEnds != null) {
      assertThat(state).as("asked to end cancelled").isEqualTo(CancellingByUser);
      state = WorkItemLifecycle.next(state, runEnds).orElseThrow();
      // What the workflow does with an instance that ended while a cancel was pending.
      state = WorkItemLifecycle.next(state, CANCEL_REQUESTED).orElse(state);
    }

    assertThat(state).isEqualTo(end);
    assertThat(WorkItemLifecycle.restartAfter(state, 0, 5)).isEmpty();
  }

  @Test
  void endedStatesOtherThanTheTransientOnesHaveNoSuccessor() {
    for (WorkItemState s : EnumSet.of(Finished, Removed, Killed, Cancelled)) {
      assertThat(WorkItemLifecycle.successors(s)).as(s.name()).isEmpty();
      assertThat(WorkItemLifecycle.restartAfter(s, 0, 5)).isEmpty();
    }
  }

  @Test
  void everyRestartStateLeadsToANewInstanceWaitingForItsStart() {
    for (WorkItemState s : WorkItemState.values()) {
      if (s.category() == WorkItemCategory.RESTART) {
        assertThat(WorkItemLifecycle.successors(s)).containsExactly(WaitingForStart);
      }
    }
  }

  @Test
  void shutdownAndAbortAlwaysRestartWithoutUsingUpRestarts() {
    assertThat(WorkItemLifecycle.restartAfter(ShutdownConfirmed, 9, 0)).contains(ShutdownRestart);
    assertThat(WorkItemLifecycle.restartAfter(Aborted, 9, 0)).contains(AbortedRestart);
    assertThat(WorkItemLifecycle.countsAgainstMaxRestarts(ShutdownRestart)).isFalse();
    assertThat(WorkItemLifecycle.countsAgainstMaxRestarts(AbortedRestart)).isFalse();
  }

  @Test
  void timeoutAndErrorRetryUntilMaxRestartsAreUsedUpThenStayFinal() {
    assertThat(WorkItemLifecycle.restartAfter(Timeout, 1, 2)).contains(TimeoutRetry);
    assertThat(WorkItemLifecycle.restartAfter(Timeout, 2, 2)).isEmpty();
    assertThat(WorkItemLifecycle.restartAfter(Error, 0, 1)).contains(ErrorRetry);
    assertThat(WorkItemLifecycle.restartAfter(Error, 1, 1)).isEmpty();
    assertThat(WorkItemLifecycle.countsAgainstMaxRestarts(TimeoutRetry)).isTrue();
    assertThat(WorkItemLifecycle.countsAgainstMaxRestarts(ErrorRetry)).isTrue();
  }

  @Test
  void onlyStatesBeforeTheStartBelongToTheWorkManagerAndOnlyThoseWithoutRemovalCanBeReplaced() {
    for (WorkItemState s : WorkItemState.values()) {
      boolean beforeStart =
          EnumSet.of(WaitingForStart, WaitingForPredecessor, Suspended, Queued, Removing)
              .contains(s);
      assertThat(s.isManagerOwned()).as(s.name()).isEqualTo(beforeStart);
      assertThat(WorkItemLifecycle.isReplaceable(s))
          .as(s.name())
          .isEqualTo(beforeStart && s != Removing);
    }
  }

  @Test
  void anItemWithoutStartTimeBeginsSuspended() {
    assertThat(WorkItemLifecycle.initialState(false)).isEqualTo(Suspended);
    assertThat(WorkItemLifecycle.initialState(true)).isEqualTo(WaitingForStart);
  }

  @Test
  void anItemQueuedLongAfterItsPlannedStartGoesFirstAndOtherwiseShorterRunsGoFirst() {
    Instant now = Instant.parse("2026-01-01T12:00:00Z");
    assertThat(WorkItemPriority.keyFor(now.minus(Duration.ofHours(1)), now, Duration.ofHours(5)))
        .isEqualTo(1);
    assertThat(WorkItemPriority.keyFor(now, now, Duration.ofSeconds(30))).isEqualTo(2);
    assertThat(WorkItemPriority.keyFor(now, now, Duration.ofMinutes(5))).isEqualTo(3);
    assertThat(WorkItemPriority.keyFor(now, now, Duration.ofMinutes(30))).isEqualTo(4);
    assertThat(WorkItemPriority.keyFor(now, now, Duration.ofHours(3))).isEqualTo(5);
  }

  @Test
  void aSpecNamesEveryFieldThatIsWrong() {
    WorkItemSpec bad =
        new WorkItemSpec(
            " ", "", null, null, Duration.ZERO, Duration.ofSeconds(-1), null, -2, null, null, null);
    assertThat(bad.problems())
        .anyMatch(p -> p.startsWith("guid:"))
        .anyMatch(p -> p.startsWith("kind:"))
        .anyMatch(p -> p.startsWith("expectedRunTime:"))
        .anyMatch(p -> p.startsWith("maxRunTime:"))
        .anyMatch(p -> p.startsWith("maxRestarts:"));
    assertThat(WorkItemSpec.of("g", "k", null, null).problems()).isEmpty();
    assertThat(WorkItemSpec.of("g", "k", null, null).withPredecessor("g").problems())
        .containsExactly("predecessorGuid: an item cannot be its own predecessor (g)");
  }
}
