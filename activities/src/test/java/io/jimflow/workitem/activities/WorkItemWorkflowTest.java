package io.jimflow.workitem.activities;

import static io.jimflow.workitem.WorkItemState.*;
import static io.jimflow.workitem.activities.ScriptedHandler.state;
import static io.jimflow.workitem.activities.WorkItemHarness.states;
import static io.jimflow.workitem.activities.WorkItemRunContext.FinishReason.MAX_RUN_TIME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.jimflow.testing.JimflowTestEnvironment;
import io.jimflow.workitem.CancelRequest;
import io.jimflow.workitem.StartTimeChange;
import io.jimflow.workitem.WorkItemCategory;
import io.jimflow.workitem.WorkItemSpec;
import io.jimflow.workitem.WorkItemState;
import io.jimflow.workitem.WorkItemTransition;
import io.jimflow.workitem.WorkItemView;
import io.jimflow.workitem.WorkItemWorkflowImpl;
import io.temporal.client.WorkflowUpdateException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WorkItemWorkflowTest {

  private WorkItemHarness h;

  @BeforeEach
  void setUp() {
    h = new WorkItemHarness(Duration.ofMillis(50), 4);
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  @Test
  void anItemWaitsForItsStartTimeThenRunsAndFinishesWithFinishedCalledOnce() {
    Instant start = h.now().plus(Duration.ofHours(2));
    WorkItemView scheduled = h.schedule(h.spec("a", state("complete"), start));
    assertThat(scheduled.state()).isEqualTo(WaitingForStart);
    assertThat(scheduled.category()).isEqualTo(WorkItemCategory.WAITING_FOR_START_CONDITION);

    WorkItemView end = h.result("a");

    assertThat(states(end)).containsExactly(WaitingForStart, Queued, Running, Finished);
    assertThat(end.log().get(1).at()).isAfterOrEqualTo(start);
    assertThat(h.handler.finishedOf("a"))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.finalState()).isEqualTo(Finished);
              assertThat(f.restartFollows()).isFalse();
              assertThat(ScriptedHandler.step(f.state())).isEqualTo(1);
            });
  }

  @Test
  void anItemWithoutStartTimeStaysSuspendedUntilChangeStartTimeWakesIt() {
    h.schedule(h.spec("s", state("complete", "keep", "me"), null));
    h.sleepOnServer(Duration.ofDays(3));
    WorkItemView asleep = h.show("s");
    assertThat(asleep.state()).isEqualTo(Suspended);
    assertThat(h.handler.runsOf("s")).isEmpty();

    Instant wake = h.now().plus(Duration.ofMinutes(10));
    WorkItemView woken = h.item("s").changeStartTime(new StartTimeChange(wake));
    assertThat(woken.state()).isEqualTo(WaitingForStart);
    WorkItemView end = h.result("s");

    assertThat(states(end)).containsExactly(Suspended, WaitingForStart, Queued, Running, Finished);
    assertThat(h.handler.runsOf("s"))
        .singleElement()
        .satisfies(r -> assertThat(r.stateAtStart()).contains("\"keep\":\"me\""));
  }

  @Test
  void changingTheStartTimeMovesTheTimerInPlace() {
    Instant now = h.now();
    h.schedule(h.spec("m", state("complete"), now.plus(Duration.ofHours(1))));
    h.item("m").changeStartTime(new StartTimeChange(now.plus(Duration.ofHours(5))));
    h.sleepOnServer(Duration.ofHours(2));
    assertThat(h.show("m").state()).isEqualTo(WaitingForStart);
    assertThat(h.handler.runsOf("m")).isEmpty();

    WorkItemView end = h.result("m");

    assertThat(end.instance()).isEqualTo(1);
    assertThat(end.log().stream().filter(t -> t.to() == Queued).findFirst().orElseThrow().at())
        .isAfterOrEqualTo(now.plus(Duration.ofHours(5)));
  }

  @Test
  void changingTheStartTimeOfARunningItemIsRefused() {
    h.schedule(h.spec("r", state("untilAsked"), h.now()));
    h.awaitState("r", Running);
    assertThatThrownBy(() -> h.item("r").changeStartTime(new StartTimeChange(h.now())))
        .isInstanceOf(WorkflowUpdateException.class)
        .hasStackTraceContaining("is Running: only a planned item's start time can change");
  }

  @Test
  void cancellingBeforeTheStartRemovesTheItemAndCallsFinishedWithRemoved() {
    h.schedule(h.spec("c", state("complete"), h.now().plus(Duration.ofHours(1))));
    h.item("c").cancel(new CancelRequest("not needed"));
    WorkItemView end = h.result("c");

    assertThat(states(end)).containsExactly(WaitingForStart, Removing, Removed);
    assertThat(end.category()).isEqualTo(WorkItemCategory.ENDED);
    assertThat(h.handler.runsOf("c")).isEmpty();
    assertThat(h.handler.finishedOf("c"))
        .singleElement()
        .satisfies(f -> assertThat(f.finalState()).isEqualTo(Removed));
  }

  @Test
  void cancellingASuspendedItemRemovesIt() {
    h.schedule(h.spec("cs", state("complete"), null));
    h.item("cs").cancel(new CancelRequest(null));
    assertThat(states(h.result("cs"))).containsExactly(Suspended, Removing, Removed);
    assertThat(h.handler.finishedOf("cs")).hasSize(1);
  }

  @Test
  void cancellingARunningItemAsksItToFinishAndItEndsCancelled() {
    h.schedule(h.spec("cr", state("untilAsked"), h.now()));
    h.awaitState("cr", Running);
    WorkItemView cancelling = h.item("cr").cancel(new CancelRequest("operator said so"));
    assertThat(cancelling.state()).isIn(Running, CancellingByUser);

    WorkItemView end = h.result("cr");

    assertThat(states(end))
        .containsExactly(WaitingForStart, Queued, Running, CancellingByUser, Cancelled);
    assertThat(end.log()).anyMatch(t -> "operator said so".equals(t.note()));
    assertThat(h.handler.reasons).containsExactly(WorkItemRunContext.FinishReason.CANCELLED);
    assertThat(h.handler.finishedOf("cr"))
        .singleElement()
        .satisfies(f -> assertThat(f.finalState()).isEqualTo(Cancelled));
    assertThatThrownBy(() -> h.item("cr").cancel(new CancelRequest("again")))
        .isInstanceOf(RuntimeException.class);
  }

  @Test
  void schedulingTheSameGuidBeforeTheStartReplacesTheItemAndOnlyTheReplacementFinishes() {
    Instant later = h.now().plus(Duration.ofHours(1));
    h.schedule(h.spec("x", state("complete", "version", 1), later));
    WorkItemView replaced = h.schedule(h.spec("x", state("complete", "version", 2), null));
    assertThat(replaced.state()).isEqualTo(Suspended);
    h.schedule(h.spec("x", state("complete", "version", 3), later));

    WorkItemView end = h.result("x");

    assertThat(states(end))
        .containsExactly(WaitingForStart, Suspended, WaitingForStart, Queued, Running, Finished);
    assertThat(end.log()).filteredOn(t -> "replaced by a new schedule".equals(t.note())).hasSize(2);
    assertThat(h.handler.runsOf("x"))
        .singleElement()
        .satisfies(r -> assertThat(r.stateAtStart()).contains("\"version\":3"));
    assertThat(h.handler.finishedOf("x"))
        .singleElement()
        .satisfies(f -> assertThat(f.state()).contains("\"version\":3"));
  }

  @Test
  void schedulingTheSameSpecAgainChangesNothing() {
    WorkItemSpec spec = h.spec("same", state("complete"), h.now().plus(Duration.ofHours(1)));
    h.schedule(spec);
    WorkItemView again = h.schedule(spec);
    assertThat(again.log()).hasSize(1);
  }

  @Test
  void schedulingAStartedItemAgainIsRefusedWithAClearError() {
    h.schedule(h.spec("own", state("untilAsked"), h.now()));
    h.awaitState("own", Running);

    assertThatThrownBy(() -> h.schedule(h.spec("own", state("complete"), h.now())))
        .isInstanceOf(WorkflowUpdateException.class)
        .hasStackTraceContaining("work item own has already started (state Running, instance 1)")
        .hasStackTraceContaining("owns itself");
    assertThat(h.show("own").state()).isEqualTo(Running);
  }

  // Supervision: the server's clock stands still while a run is outstanding, so these tests move it
  // themselves (advanceWhileRunning) and hold the handlers meanwhile; every transition then happens
  // at the moment the supervision rules name, whatever the machine's speed.

  @Test
  void anItemPastItsMaxRunTimeTimesOutAndRetriesUntilItsRestartsAreUsedUp() {
    WorkItemSpec spec =
        h.spec("t", state("untilAsked"), h.now())
            .withRunTimes(Duration.ofMinutes(10), Duration.ofMinutes(30), Duration.ofMinutes(5))
            .withRestarts(1, Duration.ofMinutes(20));

    h.schedule(spec);
    awaitRunning("t", 1);
    // The retry below must find saved progress: let the first run save once before the clock moves.
    h.awaitHandler("the first run saved progress", () -> h.handler.steps.get() > 0);
    h.advanceWhileRunning(Duration.ofMinutes(30));
    h.awaitHandler("the first run was asked to finish", () -> h.handler.reasons.size() == 1);
    h.awaitInstance("t", 2, WaitingForStart);
    h.advanceToStartOf("t");
    awaitRunning("t", 2);
    h.advanceWhileRunning(Duration.ofMinutes(30));
    WorkItemView end = h.result("t");

    assertThat(states(end))
        .containsExactly(
            WaitingForStart,
            Queued,
            Running,
            CancellingBySystem,
            Timeout,
            TimeoutRetry,
            WaitingForStart,
            Queued,
            Running,
            CancellingBySystem,
            Timeout);
    assertThat(end.state()).isEqualTo(Timeout);
    assertThat(end.instance()).isEqualTo(2);
    assertThat(end.restartsUsed()).isEqualTo(1);
    assertThat(h.handler.reasons).containsExactly(MAX_RUN_TIME, MAX_RUN_TIME);
    assertThat(h.handler.finishedOf("t"))
        .extracting(WorkItemFinishedContext::finalState, WorkItemFinishedContext::restartFollows)
        .containsExactly(tuple(Timeout, true), tuple(Timeout, false));
    // The retry continued from the progress the first instance saved.
    assertThat(ScriptedHandler.step(h.handler.runsOf("t").get(1).stateAtStart())).isPositive();
    for (int instance = 1; instance <= 2; instance++) {
      assertThat(between(end, instance, Running, CancellingBySystem))
          .as("asked to finish at the max run time, instance %d", instance)
          .isBetween(Duration.ofMinutes(30), onTime(Duration.ofMinutes(30)));
    }
    // The retry delay of 20 minutes plus its jitter of up to a quarter.
    assertThat(Duration.between(first(end, 1, TimeoutRetry).at(), first(end, 2, Queued).at()))
        .isBetween(Duration.ofMinutes(20), onTime(Duration.ofMinutes(25)));
  }

  @Test
  void anItemThatIgnoresShouldFinishIsKilledAfterTheGracePeriodAndStillFinished() {
    WorkItemSpec spec =
        h.spec("k", state("ignore"), h.now())
            .withRunTimes(Duration.ofMinutes(10), Duration.ofMinutes(30), Duration.ofMinutes(5));

    h.schedule(spec);
    awaitRunning("k", 1);
    h.advanceWhileRunning(Duration.ofMinutes(30));
    h.awaitState("k", CancellingBySystem);
    h.advanceWhileRunning(Duration.ofMinutes(4));
    assertThat(h.show("k").state())
        .as("still within its grace period")
        .isEqualTo(CancellingBySystem);
    h.advanceWhileRunning(Duration.ofMinutes(1));
    WorkItemView end = h.result("k");

    assertThat(states(end))
        .containsExactly(WaitingForStart, Queued, Running, CancellingBySystem, Killed);
    assertThat(between(end, 1, Running, CancellingBySystem))
        .isBetween(Duration.ofMinutes(30), onTime(Duration.ofMinutes(30)));
    assertThat(between(end, 1, CancellingBySystem, Killed))
        .isBetween(Duration.ofMinutes(5), onTime(Duration.ofMinutes(5)));
    assertThat(first(end, 1, Killed).note()).contains("attempt abandoned");
    assertThat(h.handler.finishedOf("k"))
        .singleElement()
        .satisfies(f -> assertThat(f.finalState()).isEqualTo(Killed));
  }

  @Test
  void aFailingHandlerEndsInErrorAndIsRetriedUntilItSucceeds() {
    h.schedule(
        h.spec("e", state("fail", "failTimes", 2), h.now()).withRestarts(3, Duration.ofSeconds(5)));
    WorkItemView end = h.result("e");

    assertThat(states(end))
        .containsExactly(
            WaitingForStart,
            Queued,
            Running,
            Error,
            ErrorRetry,
            WaitingForStart,
            Queued,
            Running,
            Error,
            ErrorRetry,
            WaitingForStart,
            Queued,
            Running,
            Finished);
    assertThat(end.log()).anyMatch(t -> t.to() == Error && t.note().contains("boom in instance 1"));
    assertThat(h.handler.finishedOf("e"))
        .extracting(WorkItemFinishedContext::finalState)
        .containsExactly(Error, Error, Finished);
  }

  @Test
  void anItemAskingToRunLongerThanTheWorkerAllowsEndsInErrorWithoutRunning() {
    h.schedule(
        h.spec("long", state("complete"), h.now())
            .withRunTimes(Duration.ofMinutes(1), Duration.ofDays(7), Duration.ofMinutes(1))
            .withRestarts(0, Duration.ofSeconds(5)));
    WorkItemView end = h.result("long");

    assertThat(end.state()).isEqualTo(Error);
    assertThat(end.log())
        .anyMatch(
            t ->
                t.to() == Error
                    && t.note()
                        .contains(
                            "maxRunTime + gracePeriod 7d1m is above this worker's maximum run"
                                + " time 1d (jimflow.work-items.max-run-time): not run"));
    assertThat(h.handler.runsOf("long")).isEmpty();
  }

  @Test
  void anItemAskingForMoreRestartsOrALongerRetryDelayThanTheWorkerAllowsEndsInErrorUnrunForGood() {
    h.schedule(
        h.spec("restarts", state("complete"), h.now())
            .withRestarts(1_000_000, Duration.ofMillis(1)));
    h.schedule(h.spec("delay", state("complete"), h.now()).withRestarts(2, Duration.ofDays(3650)));

    WorkItemView restarts = h.result("restarts");
    WorkItemView delay = h.result("delay");

    assertThat(restarts.state()).isEqualTo(Error);
    assertThat(restarts.log())
        .anyMatch(
            t ->
                t.to() == Error
                    && t.note()
                        .equals(
                            "maxRestarts 1000000 is above this worker's maximum 100"
                                + " (jimflow.work-items.max-restarts): not run"));
    assertThat(delay.state()).isEqualTo(Error);
    assertThat(delay.log())
        .anyMatch(
            t ->
                t.to() == Error
                    && t.note()
                        .equals(
                            "retryDelay 3650d is above this worker's maximum 1d"
                                + " (jimflow.work-items.max-retry-delay): not run"));
    // Refused for good: no retry follows, and the handler never ran.
    assertThat(restarts.log()).noneMatch(t -> t.to() == ErrorRetry);
    assertThat(delay.log()).noneMatch(t -> t.to() == ErrorRetry);
    assertThat(h.handler.runsOf("restarts")).isEmpty();
    assertThat(h.handler.runsOf("delay")).isEmpty();
  }

  @Test
  void anErrorStaysFinalOnceTheRestartsAreUsedUp() {
    h.schedule(h.spec("ef", state("fail"), h.now()).withRestarts(1, Duration.ofSeconds(5)));
    WorkItemView end = h.result("ef");

    assertThat(states(end))
        .containsExactly(
            WaitingForStart,
            Queued,
            Running,
            Error,
            ErrorRetry,
            WaitingForStart,
            Queued,
            Running,
            Error);
    assertThat(h.handler.finishedOf("ef"))
        .extracting(WorkItemFinishedContext::restartFollows)
        .containsExactly(true, false);
  }

  @Test
  void aRecurringItemReschedulesAndItsSuccessorWaitsForItsStartTime() {
    h.schedule(h.spec("rec", state("recurring", "stopAfter", 3, "everySeconds", 3600), h.now()));
    h.awaitInstance("rec", 2, WaitingForStart);
    assertThat(h.handler.runsOf("rec")).hasSize(1);
    h.sleepOnServer(Duration.ofMinutes(61));
    h.awaitInstance("rec", 3, WaitingForStart);
    assertThat(h.handler.runsOf("rec")).hasSize(2);
    h.sleepOnServer(Duration.ofMinutes(61));

    WorkItemView end = h.result("rec");

    assertThat(states(end))
        .containsExactly(
            WaitingForStart,
            Queued,
            Running,
            Reschedule,
            WaitingForStart,
            Queued,
            Running,
            Reschedule,
            WaitingForStart,
            Queued,
            Running,
            Finished);
    WorkItemTransition rescheduled =
        end.log().stream().filter(t -> t.to() == Reschedule).findFirst().orElseThrow();
    WorkItemTransition secondStart =
        end.log().stream()
            .filter(t -> t.to() == Queued && t.instance() == 2)
            .findFirst()
            .orElseThrow();
    assertThat(Duration.between(rescheduled.at(), secondStart.at()))
        .isBetween(Duration.ofMinutes(59), Duration.ofMinutes(61));
    assertThat(h.handler.finishedOf("rec"))
        .extracting(WorkItemFinishedContext::finalState)
        .containsExactly(Reschedule, Reschedule, Finished);
    assertThat(ScriptedHandler.step(h.handler.runsOf("rec").get(2).stateAtStart())).isEqualTo(2);
  }

  @Test
  void anItemWithAPredecessorWaitsUntilThePredecessorHasEnded() {
    h.schedule(h.spec("first", state("untilAsked"), h.now()));
    h.awaitState("first", Running);
    h.schedule(h.spec("second", state("complete"), h.now()).withPredecessor("first"));
    h.awaitState("second", WaitingForPredecessor);
    h.advanceWhileRunning(WorkItemWorkflowImpl.PREDECESSOR_POLL.multipliedBy(3));
    assertThat(h.show("second").state())
        .as("still waiting after three looks at the running predecessor")
        .isEqualTo(WaitingForPredecessor);

    h.item("first").cancel(new CancelRequest("make way"));
    WorkItemView end = h.result("second");

    assertThat(states(end))
        .containsExactly(WaitingForStart, WaitingForPredecessor, Queued, Running, Finished);
    assertThat(h.handler.runsOf("second")).hasSize(1);
  }

  @Test
  void aPredecessorThatWasNeverScheduledDoesNotHoldTheItemBack() {
    h.schedule(h.spec("lonely", state("complete"), h.now()).withPredecessor("nobody"));
    assertThat(states(h.result("lonely")))
        .containsExactly(WaitingForStart, Queued, Running, Finished);
  }

  @Test
  void aFailedFinishedCallIsLoggedNotRetriedAndTheItemGetsNoSuccessor() {
    // Overrunning the minute takes the same path (a failed, never retried WorkItemFinished); a real
    // overrun would cost a minute of wall time here because the test server's clock holds
    // meanwhile.
    h.schedule(
        h.spec("slow", state("fail", "failingFinished", true), h.now())
            .withRestarts(3, Duration.ofSeconds(5)));
    WorkItemView end = h.result("slow");

    assertThat(states(end)).containsExactly(WaitingForStart, Queued, Running, Error);
    assertThat(end.instance()).isEqualTo(1);
    assertThat(end.log())
        .anyMatch(t -> t.note() != null && t.note().startsWith("WorkItemFinished failed"))
        .anyMatch(t -> t.note() != null && t.note().contains("stays Error without a successor"));
    assertThat(h.handler.finishedOf("slow")).hasSize(1);
  }

  @Test
  void theStateAndKindSearchAttributesFollowTheItem() {
    h.schedule(h.spec("sa", state("complete"), h.now().plus(Duration.ofHours(1))));
    var attributes = h.client.newUntypedWorkflowStub("sa").describe().getTypedSearchAttributes();
    assertThat(attributes.get(io.jimflow.common.JimflowSearchAttributes.WORK_ITEM_STATE))
        .isEqualTo("WaitingForStart");
    assertThat(attributes.get(io.jimflow.common.JimflowSearchAttributes.WORK_ITEM_KIND))
        .isEqualTo(ScriptedHandler.KIND);
    h.result("sa");
    var ended = h.client.newUntypedWorkflowStub("sa").describe().getTypedSearchAttributes();
    assertThat(ended.get(io.jimflow.common.JimflowSearchAttributes.WORK_ITEM_STATE))
        .isEqualTo("Finished");
  }

  @Test
  void anItemAskedToFinishByItsMaxRunTimeMayPlanASuccessorInsteadOfTimingOut() {
    h.schedule(
        h.spec("plan", state("successorWhenAsked"), h.now())
            .withRunTimes(Duration.ofMinutes(10), Duration.ofMinutes(30), Duration.ofMinutes(5)));
    awaitRunning("plan", 1);
    h.advanceWhileRunning(Duration.ofMinutes(30));
    WorkItemView waiting = h.awaitInstance("plan", 2, WaitingForStart);
    h.item("plan").cancel(new CancelRequest("enough"));

    WorkItemView end = h.result("plan");

    assertThat(states(end))
        .containsExactly(
            WaitingForStart,
            Queued,
            Running,
            CancellingBySystem,
            Reschedule,
            WaitingForStart,
            Removing,
            Removed);
    assertThat(waiting.restartsUsed()).isZero();
    assertThat(h.handler.finishedOf("plan"))
        .extracting(WorkItemFinishedContext::finalState, WorkItemFinishedContext::restartFollows)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Reschedule, true),
            org.assertj.core.groups.Tuple.tuple(Removed, false));
  }

  @Test
  void aCancelledItemThatIgnoresTheRequestIsKilledAfterTheGracePeriod() {
    h.schedule(
        h.spec("deaf", state("ignore"), h.now())
            .withRunTimes(Duration.ofMinutes(10), Duration.ofHours(1), Duration.ofMinutes(5)));
    awaitRunning("deaf", 1);
    h.item("deaf").cancel(new CancelRequest("stop"));
    h.awaitState("deaf", CancellingByUser);
    h.advanceWhileRunning(Duration.ofMinutes(5));

    WorkItemView end = h.result("deaf");

    assertThat(states(end))
        .containsExactly(WaitingForStart, Queued, Running, CancellingByUser, Killed);
    assertThat(between(end, 1, CancellingByUser, Killed))
        .isBetween(Duration.ofMinutes(5), onTime(Duration.ofMinutes(5)));
    assertThat(h.handler.finishedOf("deaf"))
        .singleElement()
        .satisfies(f -> assertThat(f.finalState()).isEqualTo(Killed));
  }

  @Test
  void changingTheStartTimeOfAnItemWaitingForItsPredecessorMakesItWaitForTheNewTime() {
    h.schedule(h.spec("before", state("untilAsked"), h.now()));
    h.awaitState("before", Running);
    h.schedule(h.spec("after", state("complete"), h.now()).withPredecessor("before"));
    h.awaitState("after", WaitingForPredecessor);

    WorkItemView moved =
        h.item("after").changeStartTime(new StartTimeChange(h.now().plus(Duration.ofDays(1))));

    assertThat(moved.state()).isEqualTo(WaitingForStart);
    assertThat(states(moved))
        .containsExactly(WaitingForStart, WaitingForPredecessor, WaitingForStart);
    h.item("before").cancel(new CancelRequest("done"));
    h.item("after").cancel(new CancelRequest("done"));
    assertThat(h.result("after").state()).isEqualTo(Removed);
  }

  @Test
  void aRunWithReplacementClaimCancelAndSupervisionReplaysDeterministically() throws Exception {
    h.schedule(
        h.spec("rp", state("untilAsked", "version", 1), h.now().plus(Duration.ofMinutes(5))));
    h.schedule(h.spec("rp", state("untilAsked", "version", 2), h.now()));
    h.awaitState("rp", Running);
    h.item("rp").cancel(new CancelRequest("replay me"));
    h.result("rp");

    JimflowTestEnvironment.replay(h.client.fetchHistory("rp"), WorkItemWorkflowImpl.class);
  }

  private void awaitRunning(String guid, int instance) {
    h.awaitView(guid, v -> v.instance() == instance && v.state() == Running);
    h.awaitHandler(
        guid + " instance " + instance + " started its handler",
        () -> h.handler.runsOf(guid).size() >= instance);
  }

  private static WorkItemTransition first(WorkItemView view, int instance, WorkItemState to) {
    return view.log().stream()
        .filter(t -> t.instance() == instance && t.to() == to && t.from() != to)
        .findFirst()
        .orElseThrow(() -> new AssertionError("instance " + instance + " never became " + to));
  }

  private static Duration between(
      WorkItemView view, int instance, WorkItemState from, WorkItemState to) {
    return Duration.between(first(view, instance, from).at(), first(view, instance, to).at());
  }

  /**
   * The latest a transition due after {@code due} may be logged: between the timer that fires at
   * the due moment and the workflow task that logs the transition, the server's clock runs on in
   * real time.
   */
  private static Duration onTime(Duration due) {
    return due.plusSeconds(59);
  }
}
