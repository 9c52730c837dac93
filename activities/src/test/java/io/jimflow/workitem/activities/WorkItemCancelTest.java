package io.jimflow.workitem.activities;

import static io.jimflow.workitem.WorkItemState.*;
import static io.jimflow.workitem.activities.ScriptedHandler.state;
import static io.jimflow.workitem.activities.WorkItemHarness.states;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.testing.JimflowTestEnvironment;
import io.jimflow.workitem.CancelRequest;
import io.jimflow.workitem.ShutdownNotice;
import io.jimflow.workitem.WorkItemView;
import io.jimflow.workitem.WorkItemWorkflowImpl;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A cancel is never lost: one that arrives while the item is already ending for another reason, or
 * has ended and awaits its restart, ends the item Cancelled once its handler had its chance to
 * react, and the item never runs again.
 */
class WorkItemCancelTest {

  private WorkItemHarness h;

  @AfterEach
  void tearDown() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void aCancelDuringAWorkerShutdownEndsTheItemCancelledInsteadOfRestartingIt() throws Exception {
    h = new WorkItemHarness(Duration.ofMillis(50), 2);
    h.schedule(
        h.spec("sd", state("untilCancelled"), h.now()).withRestarts(3, Duration.ofSeconds(5)));
    awaitRunning("sd");
    // What a run worker that begins its shutdown tells the item (token 0: its first attempt).
    h.item("sd").shutdownRequested(new ShutdownNotice(0));
    h.awaitState("sd", ShutdownRequest);

    h.item("sd").cancel(new CancelRequest("not needed any more"));
    WorkItemView end = h.result("sd");

    assertThat(states(end))
        .containsExactly(
            WaitingForStart, Queued, Running, ShutdownRequest, CancellingByUser, Cancelled);
    assertThat(h.handler.reasons).containsExactly(WorkItemRunContext.FinishReason.CANCELLED);
    assertEndedCancelledOnce("sd", end);
    JimflowTestEnvironment.replay(h.client.fetchHistory("sd"), WorkItemWorkflowImpl.class);
  }

  @Test
  void aCancelDuringTheGracePeriodOfTheMaxRunTimeEndsCancelledNotTimeout() {
    h = new WorkItemHarness(Duration.ofMillis(50), 2);
    h.schedule(
        h.spec("sys", state("untilCancelled"), h.now())
            .withRunTimes(Duration.ofMinutes(10), Duration.ofMinutes(30), Duration.ofMinutes(5))
            .withRestarts(3, Duration.ofSeconds(5)));
    awaitRunning("sys");
    h.advanceWhileRunning(Duration.ofMinutes(30));
    h.awaitState("sys", CancellingBySystem);

    h.item("sys").cancel(new CancelRequest("stop it"));
    WorkItemView end = h.result("sys");

    assertThat(states(end))
        .containsExactly(
            WaitingForStart, Queued, Running, CancellingBySystem, CancellingByUser, Cancelled);
    assertEndedCancelledOnce("sys", end);
  }

  @Test
  void aHandlerThatThrowsWhileCancellingEndsCancelledNotErrorRetry() {
    h = new WorkItemHarness(Duration.ofMillis(50), 2);
    h.schedule(
        h.spec("thr", state("failWhenAsked"), h.now()).withRestarts(3, Duration.ofSeconds(5)));
    awaitRunning("thr");

    h.item("thr").cancel(new CancelRequest("stop it"));
    WorkItemView end = h.result("thr");

    assertThat(states(end))
        .containsExactly(WaitingForStart, Queued, Running, CancellingByUser, Error, Cancelled);
    assertThat(end.log())
        .anyMatch(t -> t.to() == Error && t.note().contains("broke while finishing"));
    assertEndedCancelledOnce("thr", end);
  }

  @Test
  void aWorkerThatDiesWhileTheItemIsCancellingEndsItCancelledNotAbortedRestart() {
    // The watcher comes round once only: heartbeats are the handler's own saves, which the test
    // stops once the cancel is in, as if the worker process had died then.
    h = new WorkItemHarness(Duration.ofHours(1), 2);
    h.schedule(
        h.spec("dead", state("heartbeatUntilStopped"), h.now())
            .withHeartbeatTimeout(Duration.ofSeconds(3))
            .withRestarts(3, Duration.ofSeconds(5)));
    awaitRunning("dead");
    h.item("dead").cancel(new CancelRequest("stop it"));
    h.awaitState("dead", CancellingByUser);

    h.handler.stopHeartbeats = true;
    WorkItemView end = h.result("dead");

    assertThat(states(end))
        .containsExactly(WaitingForStart, Queued, Running, CancellingByUser, Aborted, Cancelled);
    assertThat(end.log()).anyMatch(t -> t.to() == Aborted && t.note().contains("no heartbeat"));
    assertEndedCancelledOnce("dead", end);
  }

  @Test
  void aCancelWhileWorkItemFinishedRunsBeforeARestartEndsCancelledInsteadOfTheRetry() {
    h = new WorkItemHarness(Duration.ofMillis(50), 2);
    h.schedule(
        h.spec("fin", state("fail", "finishedWaits", true), h.now())
            .withRestarts(3, Duration.ofSeconds(5)));
    h.awaitHandler(
        "WorkItemFinished of the failed run", () -> !h.handler.finishedOf("fin").isEmpty());

    WorkItemView accepted = h.item("fin").cancel(new CancelRequest("give up"));
    assertThat(accepted.state()).isEqualTo(Error);
    h.handler.finishedGate.countDown();
    WorkItemView end = h.result("fin");

    assertThat(states(end)).containsExactly(WaitingForStart, Queued, Running, Error, Cancelled);
    assertThat(end.instance()).isEqualTo(1);
    assertThat(end.log())
        .anyMatch(t -> t.to() == Cancelled && t.note().contains("give up; no restart"));
    assertThat(h.handler.runsOf("fin")).hasSize(1);
    // WorkItemFinished ran once, for the state the instance had ended in.
    assertThat(h.handler.finishedOf("fin"))
        .singleElement()
        .satisfies(f -> assertThat(f.finalState()).isEqualTo(Error));
  }

  private void awaitRunning(String guid) {
    h.awaitView(guid, v -> v.state() == Running);
    h.awaitHandler(guid + " started its handler", () -> !h.handler.runsOf(guid).isEmpty());
  }

  private void assertEndedCancelledOnce(String guid, WorkItemView end) {
    assertThat(end.state()).isEqualTo(Cancelled);
    assertThat(end.instance()).as("never restarted").isEqualTo(1);
    assertThat(h.handler.runsOf(guid)).hasSize(1);
    assertThat(h.handler.finishedOf(guid))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.finalState()).isEqualTo(Cancelled);
              assertThat(f.restartFollows()).isFalse();
            });
  }
}
