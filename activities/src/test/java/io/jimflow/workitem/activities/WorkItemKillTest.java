package io.jimflow.workitem.activities;

import static io.jimflow.workitem.WorkItemState.*;
import static io.jimflow.workitem.activities.ScriptedHandler.state;
import static io.jimflow.workitem.activities.WorkItemHarness.states;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.testing.JimflowTestEnvironment;
import io.jimflow.workitem.CancelRequest;
import io.jimflow.workitem.WorkItemView;
import io.jimflow.workitem.WorkItemWorkflowImpl;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A kill that kills: a handler that ignores should-finish past its grace period is Killed, its
 * thread interrupted and its writes refused, and its slot serves the next item; one that ignores
 * the interrupt too is left behind with the worker reported unhealthy; an overrunning
 * WorkItemFinished is stopped the same way. The run worker has one slot, so every later activity
 * (WorkItemFinished of the killed item, the next item) runs only once the killed run gave its slot
 * back.
 */
class WorkItemKillTest {

  private WorkItemHarness h;

  @AfterEach
  void tearDown() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void aKilledHandlerIsInterruptedItsWritesAreRefusedAndItsSlotServesTheNextItem()
      throws Exception {
    h = new WorkItemHarness(Duration.ofMillis(50), 1);
    h.schedule(
        h.spec("loop", state("writeIgnoring"), h.now())
            .withRunTimes(Duration.ofMinutes(10), Duration.ofHours(1), Duration.ofMinutes(5)));
    awaitWrites("loop");
    h.item("loop").cancel(new CancelRequest("stop writing"));
    h.awaitState("loop", CancellingByUser);
    h.advanceWhileRunning(Duration.ofMinutes(5));

    WorkItemView end = h.result("loop");

    assertThat(states(end))
        .containsExactly(WaitingForStart, Queued, Running, CancellingByUser, Killed);
    h.awaitHandler(
        "the killed handler was interrupted", () -> h.handler.interrupted.contains("run:loop"));
    // Its write after the kill (the one it tried when interrupted) was refused: not in the store.
    h.awaitHandler(
        "the killed handler's last write was refused", () -> !h.handler.refused.isEmpty());
    assertThat(h.handler.refused.get(0))
        .isInstanceOf(WorkItemFencedException.class)
        .hasMessageContaining("work item loop instance 1")
        .hasMessageContaining("Killed")
        .hasMessageContaining("write refused");
    assertThat(h.handler.storeOf("loop"))
        .isNotEmpty()
        .noneMatch(w -> w.endsWith("after-interrupt"));
    assertThat(h.handler.finishedOf("loop"))
        .singleElement()
        .satisfies(f -> assertThat(f.finalState()).isEqualTo(Killed));
    assertThat(h.runaways.healthy()).isTrue();

    // The only slot is free again: the next item runs and finishes.
    h.schedule(h.spec("next", state("complete"), h.now()));
    assertThat(h.result("next").state()).isEqualTo(Finished);
    JimflowTestEnvironment.replay(h.client.fetchHistory("loop"), WorkItemWorkflowImpl.class);
  }

  @Test
  void aHandlerThatIgnoresEvenTheInterruptLosesItsSlotAndTheWorkerIsReportedUnhealthy() {
    h =
        new WorkItemHarness(
            Duration.ofMillis(50), 1, Duration.ofMillis(500), Duration.ofMinutes(1));
    h.schedule(
        h.spec("deaf", state("writeIgnoring", "ignoreInterrupt", true), h.now())
            .withRunTimes(Duration.ofMinutes(10), Duration.ofHours(1), Duration.ofMinutes(5)));
    awaitWrites("deaf");
    h.item("deaf").cancel(new CancelRequest("stop writing"));
    h.awaitState("deaf", CancellingByUser);
    h.advanceWhileRunning(Duration.ofMinutes(5));

    assertThat(h.result("deaf").state()).isEqualTo(Killed);
    h.awaitHandler("the worker reported unhealthy", () -> !h.runaways.healthy());
    assertThat(h.runaways.current())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.guid()).isEqualTo("deaf");
              assertThat(r.call()).isEqualTo("run");
              assertThat(r.thread().isAlive()).isTrue();
              assertThat(r.describe()).contains("deaf instance 1: run ignored its kill");
            });
    assertThat(h.handler.interrupted).contains("run:deaf");
    // WorkItemFinished(Killed) and the next item both needed the one slot the runaway had.
    assertThat(h.handler.finishedOf("deaf")).hasSize(1);
    h.schedule(h.spec("after", state("complete"), h.now()));
    assertThat(h.result("after").state()).isEqualTo(Finished);
    // The runaway still tries to write: every attempt is refused, the store gains nothing.
    int stored = h.handler.storeOf("deaf").size();
    int refusedSoFar = h.handler.refused.size();
    h.awaitHandler(
        "further refused writes of the runaway", () -> h.handler.refused.size() > refusedSoFar + 3);
    assertThat(h.handler.storeOf("deaf")).hasSize(stored).noneMatch(w -> w.endsWith("interrupt"));
    assertThat(h.runaways.healthy()).isFalse();

    // Once the thread ends after all, the worker is healthy again.
    h.handler.release.countDown();
    h.awaitHandler("the worker healthy again", h.runaways::healthy);
  }

  @Test
  void anOverrunningWorkItemFinishedIsInterruptedItsWritesRefusedAndTheItemKeepsItsEnd() {
    h =
        new WorkItemHarness(
            Duration.ofMillis(50), 1, Duration.ofSeconds(10), Duration.ofSeconds(1));
    h.schedule(h.spec("slowend", state("complete", "finishedOverruns", true), h.now()));

    WorkItemView end = h.result("slowend");

    assertThat(states(end)).containsExactly(WaitingForStart, Queued, Running, Finished);
    assertThat(end.log())
        .anyMatch(
            t ->
                t.note() != null
                    && t.note().startsWith("WorkItemFinished failed")
                    && t.note().contains("overran its limit of PT1S"));
    assertThat(h.handler.interrupted).containsExactly("finished:slowend");
    assertThat(h.handler.refused)
        .singleElement()
        .satisfies(
            e -> assertThat(e).hasMessageContaining("overran its limit of PT1S: write refused"));
    assertThat(h.handler.storeOf("slowend")).isEmpty();
    assertThat(h.runaways.healthy()).isTrue();
    // Its slot is free for the next item.
    h.schedule(h.spec("then", state("complete"), h.now()));
    assertThat(h.result("then").state()).isEqualTo(Finished);
  }

  private void awaitWrites(String guid) {
    h.awaitView(guid, v -> v.state() == Running);
    h.awaitHandler(guid + " wrote", () -> h.handler.storeOf(guid).size() >= 3);
  }
}
