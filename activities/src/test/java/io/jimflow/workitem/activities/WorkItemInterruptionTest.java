package io.jimflow.workitem.activities;

import static io.jimflow.workitem.WorkItemState.*;
import static io.jimflow.workitem.activities.ScriptedHandler.state;
import static io.jimflow.workitem.activities.WorkItemHarness.states;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.workitem.CancelRequest;
import io.jimflow.workitem.WorkItemCategory;
import io.jimflow.workitem.WorkItemView;
import io.temporal.client.WorkflowUpdateException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Worker shutdown, worker crash, a full queue, and a replacement racing the start. */
class WorkItemInterruptionTest {

  private WorkItemHarness h;

  @AfterEach
  void tearDown() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void aGracefulWorkerShutdownEndsShutdownConfirmedAndTheRestartContinuesFromSavedProgress() {
    h = new WorkItemHarness(Duration.ofMillis(50), 2);
    h.schedule(h.spec("sd", state("untilAsked", "doneAt", 1_000_000), h.now()));
    h.awaitView("sd", v -> v.state() == Running && !h.handler.runsOf("sd").isEmpty());
    h.awaitHandler("the run saved progress three times", () -> h.handler.steps.get() >= 3);

    h.shutdownRunWorker();
    WorkItemView waiting = h.awaitInstance("sd", 2, Queued);
    assertThat(states(waiting))
        .containsExactly(
            WaitingForStart,
            Queued,
            Running,
            ShutdownRequest,
            ShutdownConfirmed,
            ShutdownRestart,
            WaitingForStart,
            Queued);
    assertThat(h.handler.reasons).containsExactly(WorkItemRunContext.FinishReason.SHUTDOWN);
    int savedStep = ScriptedHandler.step(waiting.stateJson());
    assertThat(savedStep).isPositive();

    h.startRunWorker();
    // The view says Running when the run activity is dispatched; the handler records the run a
    // moment later, when the activity calls it.
    WorkItemView running =
        h.awaitView(
            "sd",
            v -> v.instance() == 2 && v.state() == Running && h.handler.runsOf("sd").size() >= 2);
    assertThat(running.restartsUsed()).isZero();
    assertThat(ScriptedHandler.step(h.handler.runsOf("sd").get(1).stateAtStart()))
        .isEqualTo(savedStep);
    assertThat(h.handler.finishedOf("sd"))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.finalState()).isEqualTo(ShutdownConfirmed);
              assertThat(f.restartFollows()).isTrue();
            });
  }

  @Test
  void aCrashedWorkerIsNoticedByTheHeartbeatTimeoutAndTheItemRestartsFromItsLastCheckpoint() {
    // A watcher that never comes round: the handler's own single save is the last heartbeat, and
    // the first instance then hangs like a dead process. The SDK sends that save, which follows the
    // run's first heartbeat at once, only at the end of its throttle window (0.8 of the heartbeat
    // timeout), so the server sees it 0.2 of the timeout before the timeout would fire: 30 s leave
    // that flush 6 s. 2 s (0.4 s left) and 10 s (2 s left) each once saw it come too late, the
    // second in a whole-suite run on an otherwise idle 2-core machine.
    h = new WorkItemHarness(Duration.ofHours(1), 4);
    h.schedule(
        h.spec("crash", state("hang", "step", 41, "hangInstances", 1), h.now())
            .withHeartbeatTimeout(Duration.ofSeconds(30)));

    WorkItemView end = h.result("crash");

    assertThat(states(end))
        .containsExactly(
            WaitingForStart,
            Queued,
            Running,
            Aborted,
            AbortedRestart,
            WaitingForStart,
            Queued,
            Running,
            Finished);
    assertThat(end.log()).anyMatch(t -> t.to() == Aborted && t.note().contains("no heartbeat"));
    assertThat(end.restartsUsed()).isZero();
    assertThat(ScriptedHandler.step(h.handler.runsOf("crash").get(1).stateAtStart())).isEqualTo(42);
    assertThat(h.handler.finishedOf("crash"))
        .extracting(WorkItemFinishedContext::finalState)
        .containsExactly(Aborted, Finished);
  }

  @Test
  void anItemWhoseStartHasComeButFindsNoFreeSlotIsQueuedUntilOneFrees() {
    h = new WorkItemHarness(Duration.ofMillis(50), 1);
    h.schedule(h.spec("busy", state("untilAsked"), h.now()));
    h.awaitState("busy", Running);
    h.schedule(h.spec("waiting", state("complete"), h.now()));
    assertThat(h.awaitState("waiting", Queued).category())
        .isEqualTo(WorkItemCategory.WAITING_FOR_EXECUTION);
    assertThat(h.handler.runsOf("waiting")).isEmpty();

    h.item("busy").cancel(new CancelRequest("free the slot"));

    assertThat(states(h.result("waiting")))
        .containsExactly(WaitingForStart, Queued, Running, Finished);
  }

  @Test
  void aQueuedItemCanStillBeReplacedOrCancelledAndItsStaleAttemptNeverRuns() {
    h = new WorkItemHarness(Duration.ofMillis(50), 1);
    h.schedule(h.spec("hog", state("untilAsked"), h.now()));
    h.awaitState("hog", Running);
    h.schedule(h.spec("q", state("complete", "version", 1), h.now()));
    h.awaitState("q", Queued);
    h.schedule(h.spec("q", state("complete", "version", 2), h.now()));
    h.schedule(h.spec("gone", state("complete"), h.now()));
    h.awaitState("gone", Queued);
    h.item("gone").cancel(new CancelRequest("not wanted"));

    h.item("hog").cancel(new CancelRequest("free the slot"));
    WorkItemView end = h.result("q");

    assertThat(states(end))
        .containsExactly(WaitingForStart, Queued, WaitingForStart, Queued, Running, Finished);
    assertThat(h.handler.runsOf("q"))
        .singleElement()
        .satisfies(r -> assertThat(r.stateAtStart()).contains("\"version\":2"));
    assertThat(states(h.result("gone")))
        .containsExactly(WaitingForStart, Queued, Removing, Removed);
    assertThat(h.handler.runsOf("gone")).isEmpty();
    assertThat(h.handler.finishedOf("gone"))
        .singleElement()
        .satisfies(f -> assertThat(f.finalState()).isEqualTo(Removed));
  }

  @Test
  void replacementsRacingTheStartEitherWinOrAreRefusedAndTheRunAlwaysUsesTheLastAcceptedVersion()
      throws Exception {
    h = new WorkItemHarness(Duration.ofMillis(50), 4);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      for (int round = 0; round < 5; round++) {
        String guid = "race-" + round;
        // Runs until cancelled, so every racing call meets this item, never a later one.
        h.schedule(h.spec(guid, state("untilAsked", "version", 0), h.now()));
        List<Future<Integer>> attempts = new ArrayList<>();
        for (int v = 1; v <= 8; v++) {
          int version = v;
          attempts.add(
              pool.submit(
                  () -> {
                    try {
                      h.schedule(h.spec(guid, state("untilAsked", "version", version), h.now()));
                      return version;
                    } catch (WorkflowUpdateException refused) {
                      assertThat(refused).hasStackTraceContaining("has already started");
                      return -1;
                    }
                  }));
        }
        List<Integer> accepted = new ArrayList<>();
        for (Future<Integer> f : attempts) {
          if (f.get() > 0) {
            accepted.add(f.get());
          }
        }
        h.awaitState(guid, Running);
        h.item(guid).cancel(new CancelRequest("round over"));
        WorkItemView end = h.result(guid);

        assertThat(end.state()).isEqualTo(Cancelled);
        assertThat(h.handler.runsOf(guid)).hasSize(1);
        assertThat(h.handler.finishedOf(guid)).hasSize(1);
        long replacements =
            end.log().stream().filter(t -> "replaced by a new schedule".equals(t.note())).count();
        assertThat(replacements).isEqualTo(accepted.size());
        int ranWith =
            new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(h.handler.runsOf(guid).get(0).stateAtStart())
                .path("version")
                .asInt();
        if (accepted.isEmpty()) {
          assertThat(ranWith).isZero();
        } else {
          assertThat(accepted).contains(ranWith);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
