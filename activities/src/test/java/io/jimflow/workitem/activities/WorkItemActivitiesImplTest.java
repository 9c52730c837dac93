package io.jimflow.workitem.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.workitem.FinishedInput;
import io.jimflow.workitem.RunAttempt;
import io.jimflow.workitem.RunCheckpoint;
import io.jimflow.workitem.RunGrant;
import io.jimflow.workitem.RunInput;
import io.jimflow.workitem.RunResult;
import io.jimflow.workitem.WorkItemActivities;
import io.jimflow.workitem.WorkItemState;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.testing.TestActivityEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkItemActivitiesImplTest {

  /**
   * The workflow side as the activity sees it: a claim answer and a state that a test can change.
   */
  static final class FakeControl implements WorkItemControl {
    volatile boolean grant = true;
    volatile String kind = "probe";
    final AtomicReference<WorkItemState> state = new AtomicReference<>(WorkItemState.Running);
    final List<Long> claims = new CopyOnWriteArrayList<>();

    @Override
    public Optional<RunGrant> claim(String guid, long token) {
      claims.add(token);
      return grant ? Optional.of(new RunGrant(guid, kind, 1, "{\"n\":0}")) : Optional.empty();
    }

    @Override
    public WorkItemState state(String guid) {
      return state.get();
    }

    @Override
    public RunAttempt attempt(String guid) {
      return new RunAttempt(1, claims.isEmpty() ? 0 : claims.get(claims.size() - 1), state.get());
    }

    @Override
    public void reportShutdown(String guid, long token) {}
  }

  /** A handler whose behaviour each test sets. */
  static final class Probe implements WorkItemHandler {
    interface Body {
      WorkItemRunOutcome run(WorkItemRunContext c) throws Exception;
    }

    interface FinishedBody {
      void finished(WorkItemFinishedContext c) throws Exception;
    }

    volatile Body body = c -> WorkItemRunOutcome.done(c.state());
    volatile FinishedBody finishedBody = c -> {};
    volatile int runs;

    @Override
    public void finished(WorkItemFinishedContext context) throws Exception {
      finishedBody.finished(context);
    }

    @Override
    public String kind() {
      return "probe";
    }

    @Override
    public WorkItemRunOutcome run(WorkItemRunContext context) throws Exception {
      runs++;
      return body.run(context);
    }
  }

  private final TestActivityEnvironment env = TestActivityEnvironment.newInstance();
  private final FakeControl control = new FakeControl();
  private final Probe probe = new Probe();
  private final RunawayHandlers runaways = new RunawayHandlers();
  private final WorkItemActivities activities;

  /** What the handler under test wrote through its fence, and what was refused. */
  private final List<String> store = new CopyOnWriteArrayList<>();

  private final List<WorkItemFencedException> refused = new CopyOnWriteArrayList<>();
  private final CountDownLatch interrupted = new CountDownLatch(1);
  private final CountDownLatch letGo = new CountDownLatch(1);

  WorkItemActivitiesImplTest() {
    env.registerActivitiesImplementations(
        new WorkItemActivitiesImpl(
            new WorkItemHandlerRegistry(List.of(probe)),
            control,
            new WorkItemTimings(
                Duration.ofMillis(20), Duration.ofMillis(300), Duration.ofMillis(500)),
            runaways));
    activities =
        env.newActivityStub(
            WorkItemActivities.class,
            ActivityOptions.newBuilder()
                .setStartToCloseTimeout(Duration.ofMinutes(1))
                .setHeartbeatTimeout(Duration.ofSeconds(30))
                .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
                .build());
  }

  @AfterEach
  void tearDown() {
    letGo.countDown();
    env.close();
  }

  @Test
  void aKilledHandlerIsRefusedItsNextWriteAndInterruptedAndTheRunReturns() {
    probe.body =
        c -> {
          try {
            for (int i = 0; ; i++) {
              int n = i;
              try {
                c.write(() -> store.add("write " + n));
              } catch (WorkItemFencedException e) {
                refused.add(e);
              }
              if (n == 2) {
                // What the workflow does when the grace period runs out.
                control.state.set(WorkItemState.Killed);
              }
              Thread.sleep(10);
            }
          } catch (InterruptedException e) {
            interrupted.countDown();
            try {
              c.write(() -> store.add("after the interrupt"));
            } catch (WorkItemFencedException refusedWrite) {
              refused.add(refusedWrite);
            }
            throw e;
          }
        };

    RunResult result = activities.run(new RunInput("g", "probe", 1, 4));

    assertThat(store).containsExactly("write 0", "write 1", "write 2");
    assertThat(refused).isNotEmpty();
    assertThat(refused.get(0))
        .hasMessageContaining("work item g instance 1 (attempt 4)")
        .hasMessageContaining("Killed")
        .hasMessageContaining("write refused");
    assertThat(interrupted.getCount()).isZero();
    assertThat(result.error()).contains("Killed");
    assertThat(runaways.healthy()).isTrue();
  }

  @Test
  void progressSavedAfterTheKillIsRefusedToo() {
    probe.body =
        c -> {
          c.saveProgress("{\"n\":1}");
          control.state.set(WorkItemState.Killed);
          long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
          while (System.nanoTime() < deadline) {
            try {
              c.saveProgress("{\"n\":2}");
            } catch (WorkItemFencedException e) {
              refused.add(e);
              return WorkItemRunOutcome.stopped("{\"n\":2}");
            }
            // Not Thread.sleep: the interrupt that follows the refusal must not end the loop first.
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
          }
          throw new AssertionError("saveProgress was never refused");
        };

    RunResult result = activities.run(new RunInput("g", "probe", 1, 1));

    assertThat(refused)
        .singleElement()
        .satisfies(e -> assertThat(e).hasMessageContaining("saveProgress refused"));
    assertThat(result.claimed()).isTrue();
  }

  @Test
  void aHandlerThatIgnoresTheInterruptIsLeftBehindAndReportedAsARunaway() throws Exception {
    probe.body =
        c -> {
          control.state.set(WorkItemState.Killed);
          while (true) {
            try {
              if (letGo.await(10, TimeUnit.MILLISECONDS)) {
                return WorkItemRunOutcome.stopped(c.state());
              }
            } catch (InterruptedException ignored) {
              interrupted.countDown();
            }
          }
        };

    RunResult result = activities.run(new RunInput("g", "probe", 1, 1));

    assertThat(result.error()).contains("Killed");
    assertThat(interrupted.getCount()).isZero();
    assertThat(runaways.current())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.guid()).isEqualTo("g");
              assertThat(r.kind()).isEqualTo("probe");
              assertThat(r.thread().getName()).isEqualTo("work-item-probe-g");
              assertThat(r.thread().isAlive()).isTrue();
            });
    assertThat(runaways.healthy()).isFalse();

    Thread thread = runaways.current().get(0).thread();
    letGo.countDown();
    thread.join(Duration.ofSeconds(30).toMillis());
    assertThat(runaways.healthy()).isTrue();
  }

  @Test
  void anOverrunningWorkItemFinishedIsInterruptedRefusedAndFails() {
    probe.finishedBody =
        c -> {
          try {
            letGo.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            interrupted.countDown();
            try {
              c.write(() -> store.add("late result"));
            } catch (WorkItemFencedException refusedWrite) {
              refused.add(refusedWrite);
            }
            throw e;
          }
        };

    assertThatThrownBy(
            () ->
                activities.finished(
                    new FinishedInput("g", "probe", 1, WorkItemState.Finished, "{}", false)))
        .isInstanceOf(ActivityFailure.class)
        .hasStackTraceContaining("WorkItemFinished of g overran its limit of PT0.5S");
    assertThat(interrupted.getCount()).isZero();
    assertThat(store).isEmpty();
    assertThat(refused)
        .singleElement()
        .satisfies(e -> assertThat(e).hasMessageContaining("overran its limit of PT0.5S"));
    assertThat(runaways.healthy()).isTrue();
  }

  @Test
  void aRefusedClaimRunsNothing() {
    control.grant = false;

    RunResult result = activities.run(new RunInput("g", "probe", 1, 7));

    assertThat(result.claimed()).isFalse();
    assertThat(probe.runs).isZero();
    assertThat(control.claims).containsExactly(7L);
  }

  @Test
  void theHandlerSeesTheReasonTheWorkflowAsksItToFinishFor() {
    probe.body =
        c -> {
          control.state.set(WorkItemState.CancellingBySystem);
          long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
          while (!c.shouldFinish() && System.nanoTime() < deadline) {
            Thread.sleep(10);
          }
          return WorkItemRunOutcome.stopped("{\"reason\":\"" + c.finishReason() + "\"}");
        };

    RunResult result = activities.run(new RunInput("g", "probe", 1, 1));

    assertThat(result.stateJson()).isEqualTo("{\"reason\":\"MAX_RUN_TIME\"}");
    assertThat(result.done()).isFalse();
    assertThat(result.error()).isNull();
  }

  @Test
  void aHandlerExceptionEndsTheRunWithTheErrorAndTheLastSavedProgress() {
    probe.body =
        c -> {
          c.saveProgress("{\"n\":41}");
          throw new IllegalStateException("disk full");
        };

    RunResult result = activities.run(new RunInput("g", "probe", 1, 1));

    assertThat(result.claimed()).isTrue();
    assertThat(result.error()).isEqualTo("java.lang.IllegalStateException: disk full");
    assertThat(result.stateJson()).isEqualTo("{\"n\":41}");
  }

  @Test
  void savedProgressReachesTheServerAsTheHeartbeatCheckpoint() {
    List<RunCheckpoint> beats = new CopyOnWriteArrayList<>();
    env.setActivityHeartbeatListener(RunCheckpoint.class, beats::add);
    probe.body =
        c -> {
          // The SDK sends heartbeats at most every 0.8 × heartbeat timeout (here 1.6 s): each save
          // is awaited until it arrives.
          c.saveProgress("{\"n\":1}");
          awaitCheckpoint(beats, "{\"n\":1}");
          c.saveProgress("{\"n\":2}");
          awaitCheckpoint(beats, "{\"n\":2}");
          return WorkItemRunOutcome.done("{\"n\":2}");
        };
    WorkItemActivities shortHeartbeat =
        env.newActivityStub(
            WorkItemActivities.class,
            ActivityOptions.newBuilder()
                .setStartToCloseTimeout(Duration.ofMinutes(1))
                .setHeartbeatTimeout(Duration.ofSeconds(2))
                .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
                .build());

    shortHeartbeat.run(new RunInput("g", "probe", 1, 1));

    // The first heartbeat, before the claim, only probes for a worker shutdown and carries nothing.
    assertThat(beats)
        .filteredOn(java.util.Objects::nonNull)
        .extracting(RunCheckpoint::stateJson)
        .contains("{\"n\":1}", "{\"n\":2}");
  }

  private static void awaitCheckpoint(List<RunCheckpoint> beats, String stateJson)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (beats.stream().noneMatch(b -> b != null && stateJson.equals(b.stateJson()))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no heartbeat with " + stateJson + " within 60 s: " + beats);
      }
      Thread.sleep(20);
    }
  }

  @Test
  void anItemOfAKindThisWorkerDoesNotKnowEndsInErrorNamingTheKnownKinds() {
    control.kind = "mystery";

    RunResult result = activities.run(new RunInput("g", "mystery", 1, 1));

    assertThat(result.error())
        .isEqualTo("no handler for kind 'mystery' on this worker (it has [probe])");
    assertThat(probe.runs).isZero();
  }

  @Test
  void twoHandlersForOneKindAreRefusedAtStartUp() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new WorkItemHandlerRegistry(List.of(new Probe(), new Probe())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("work item kind 'probe' has two handlers");
  }
}
