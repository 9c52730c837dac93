package io.jimflow.schedule;

import io.jimflow.resource.ResourceLocks;
import io.jimflow.schedule.StepGroups.PlannedStep;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * The steps of one schedule execution as activities: starts each step, follows it to its end
 * (resuming it when its worker was stopped, holding its resources while it runs) and writes the end
 * on the {@link StepBoard}. Workflow code, run on the execution's workflow thread.
 */
final class StepDispatcher {

  private static final Logger log = Workflow.getLogger(StepDispatcher.class);

  /**
   * Change id: a step whose cancel could not reach its worker (the worker is dead, so the step
   * timed out after the cancel) ends Cancelled, not FailedWithError; executions begun before it
   * keep the earlier outcome.
   */
  static final String CANCEL_REACHES_DEAD_WORKER = "step-cancel-reaches-dead-worker";

  /**
   * Change id: a step's {@code timeout} bounds the whole step across attempts (schedule-to-close)
   * and {@code attemptTimeout} one attempt; executions begun before it bound each attempt by {@code
   * timeout}.
   */
  static final String TIMEOUT_BOUNDS_WHOLE_STEP = "step-timeout-bounds-whole-step";

  /**
   * Change id: a step attempt interrupted because its worker was stopped in order (SIGTERM) is
   * resumed from its checkpoint by a new run of the step, after a pause, without counting as an
   * attempt; executions begun before it let the attempt fail.
   */
  static final String RESUME_AFTER_WORKER_STOP = "step-resume-after-worker-stop";

  /** Bounds the resumptions of one step, so that a worker stopping again and again ends it. */
  static final int MAXIMUM_RESUMPTIONS = 20;

  private final ScheduleExecutionInput input;
  private final StepBoard board;
  private final ResourceLocks locks;
  private final Approvals approvals;
  private final ExecutionHistory history;
  private final boolean holdsResources;
  private final Runnable railChanged;
  private final Runnable showRail;

  private int running;
  private int ended;
  private final List<AbandonStepRequest> toAbandon = new ArrayList<>();

  /**
   * @param history null for executions begun before the execution record existed
   * @param holdsResources whether RunProfile steps take their resources first (a version of the
   *     execution)
   * @param railChanged marks the step rail stale; it is shown when the workflow next blocks
   * @param showRail shows the step rail now
   */
  StepDispatcher(
      ScheduleExecutionInput input,
      StepBoard board,
      ResourceLocks locks,
      Approvals approvals,
      ExecutionHistory history,
      boolean holdsResources,
      Runnable railChanged,
      Runnable showRail) {
    this.input = input;
    this.board = board;
    this.locks = locks;
    this.approvals = approvals;
    this.history = history;
    this.holdsResources = holdsResources;
    this.railChanged = railChanged;
    this.showRail = showRail;
  }

  /** Steps started and not yet ended. */
  int running() {
    return running;
  }

  /** Steps ended so far; grows by one as each step ends. */
  int ended() {
    return ended;
  }

  /** Starts {@code planned}; its end is written on the board when it comes. */
  void start(PlannedStep planned) {
    StepDefinition step = planned.definition();
    StepRunRequest request =
        new StepRunRequest(
            planned.position(),
            Workflow.getInfo().getWorkflowId(),
            input.definition().id(),
            input.initiator(),
            step);
    ActivityOptions options =
        StepOptions.forStep(
            step,
            Workflow.getVersion(TIMEOUT_BOUNDS_WHOLE_STEP, Workflow.DEFAULT_VERSION, 1)
                != Workflow.DEFAULT_VERSION);
    StepActivities activities = Workflow.newActivityStub(StepActivities.class, options);
    if (holdsResources && step.runProfile() != null) {
      running++;
      railChanged.run();
      Async.procedure(() -> runHoldingResources(planned, request, activities, options));
      return;
    }
    board.started(planned.position(), now());
    running++;
    railChanged.run();
    Promise<StepRunResult> promise = Async.function(activities::runStep, request);
    // Each step is handled on its own: one failing never cancels its siblings.
    promise.handle(
        (result, failure) -> {
          if (failure instanceof ActivityFailure stopped
              && StepFailureVerdict.workerStopped(stopped) != null) {
            Async.procedure(
                () -> {
                  StepRunResult resumed = null;
                  RuntimeException failed = null;
                  try {
                    resumed = resume(request, options, stopped);
                  } catch (RuntimeException e) {
                    failed = e;
                  }
                  stepEnded(request, resumed, failed);
                });
          } else {
            stepEnded(request, result, failure);
          }
          return null;
        });
  }

  private void stepEnded(StepRunRequest request, StepRunResult result, RuntimeException failure) {
    running--;
    ended++;
    if (failure == null) {
      if (history != null) {
        history.runRecord(request.position(), result.runRecordId());
      }
      board.finished(
          request.position(),
          // Only steps that hold their resources wait for approval; here a hold ends the step.
          result.status() == StepStatus.AwaitingApproval
              ? StepStatus.FailedWithError
              : result.status(),
          result.attempt(),
          now(),
          result.message(),
          result.stats());
    } else {
      recordFailure(request, failure);
    }
    railChanged.run();
  }

  /**
   * Runs the step once more from where an attempt interrupted by its worker's stop left it, as
   * often as workers stop under it (up to {@link #MAXIMUM_RESUMPTIONS}); such an attempt does not
   * count: the new run may make the step's remaining attempts.
   *
   * @throws ActivityFailure how the step finally failed
   */
  private StepRunResult resume(
      StepRunRequest request, ActivityOptions options, ActivityFailure stopped) {
    if (Workflow.getVersion(RESUME_AFTER_WORKER_STOP, Workflow.DEFAULT_VERSION, 1)
        == Workflow.DEFAULT_VERSION) {
      throw stopped;
    }
    ActivityFailure last = stopped;
    StepHeartbeat checkpoint = StepFailureVerdict.workerStopped(stopped);
    int maximumAttempts = StepOptions.maximumAttempts(request.step());
    for (int i = 0; checkpoint != null && i < MAXIMUM_RESUMPTIONS; i++) {
      log.info(
          "step '{}': its worker stopped during attempt {}; resuming it",
          request.step().name(),
          checkpoint.attempt());
      // The stopping worker may still poll for a moment: the new run waits until it is gone.
      Workflow.sleep(StepOptions.DEFAULT_INITIAL_INTERVAL.multipliedBy(Math.min(i + 1, 5)));
      int spent = Math.max(0, checkpoint.attempt() - 1);
      ActivityOptions remaining =
          ActivityOptions.newBuilder(options)
              .setRetryOptions(
                  RetryOptions.newBuilder(options.getRetryOptions())
                      .setMaximumAttempts(Math.max(1, maximumAttempts - spent))
                      .build())
              .build();
      StepActivities activities = Workflow.newActivityStub(StepActivities.class, remaining);
      try {
        return activities.runStep(request.resumingFrom(checkpoint));
      } catch (ActivityFailure e) {
        last = e;
        checkpoint = StepFailureVerdict.workerStopped(e);
      }
    }
    throw last;
  }

  /**
   * Takes the step's resources (Waiting until they are granted), runs it, and gives them back
   * before the step counts as ended, so that the execution's next step on the same connected system
   * claims it only after this one released it.
   */
  private void runHoldingResources(
      PlannedStep planned,
      StepRunRequest request,
      StepActivities activities,
      ActivityOptions options) {
    StepDefinition step = request.step();
    int position = planned.position();
    ResourceLocks.Held held = null;
    Instant claimed = now();
    try {
      List<String> resources =
          locks.resourcesOf(step.runProfile().connectedSystem(), step.runProfile().runProfile());
      held =
          locks.acquire(
              resources,
              Integer.toString(position),
              input.definition().name() + " / " + step.name(),
              waiting -> {
                board.waitingFor(position, waiting.describeWait());
                // The main thread is blocked until a step ends; the rail shows it now.
                showRail.run();
              });
      board.started(position, now());
      showRail.run();
      StepRunRequest run = request.afterWaiting(Duration.between(claimed, now()));
      StepRunResult result;
      try {
        result = activities.runStep(run);
      } catch (ActivityFailure e) {
        if (StepFailureVerdict.workerStopped(e) == null) {
          throw e;
        }
        result = resume(run, options, e);
      }
      while (result.status() == StepStatus.AwaitingApproval) {
        result = awaitApproval(position, request, activities, result);
      }
      if (history != null) {
        history.runRecord(position, result.runRecordId());
      }
      board.finished(
          position, result.status(), result.attempt(), now(), result.message(), result.stats());
    } catch (CanceledFailure e) {
      if (held == null) {
        board.finished(position, StepStatus.Cancelled, 0, now(), "cancelled while waiting", null);
      } else {
        recordFailure(request, e);
      }
    } catch (ActivityFailure e) {
      if (held == null && e.getCause() instanceof CanceledFailure) {
        board.finished(position, StepStatus.Cancelled, 0, now(), "cancelled while waiting", null);
      } else if (held == null) {
        board.finished(
            position,
            StepStatus.FailedWithError,
            0,
            now(),
            "could not take its resources: " + e.getCause().getMessage(),
            null);
      } else {
        recordFailure(request, e);
      }
    } finally {
      locks.release(held);
      running--;
      ended++;
      railChanged.run();
    }
  }

  /**
   * Shows the step AwaitingApproval with what holds it, waits for a person's decision (or its
   * window, then it is rejected) and runs the step again with the decision: approved, it goes past
   * its threshold; rejected, it ends without sending or marking anything.
   */
  private StepRunResult awaitApproval(
      int position, StepRunRequest request, StepActivities activities, StepRunResult held) {
    if (Workflow.getVersion(Approvals.THRESHOLD_APPROVAL, Workflow.DEFAULT_VERSION, 1)
        == Workflow.DEFAULT_VERSION) {
      return new StepRunResult(
          StepStatus.FailedWithError,
          held.attempt(),
          held.message(),
          held.stats(),
          held.runRecordId());
    }
    board.awaitingApproval(position, held.message());
    showRail.run();
    String step = request.step().name();
    ApprovalDecision decision =
        approvals.await(
            position,
            step,
            Approvals.window(held),
            Notification.awaitingApproval(
                input.definition(), Workflow.getInfo().getWorkflowId(), step, held.message()));
    log.info("step '{}' {}", step, decision.describe());
    board.awaitingApproval(position, null);
    showRail.run();
    return activities.runStep(request.decided(decision));
  }

  private void recordFailure(StepRunRequest request, RuntimeException failure) {
    StepDefinition step = request.step();
    StepFailureVerdict verdict =
        StepFailureVerdict.of(
            step,
            board.get(request.position()).attempts(),
            failure,
            StepDispatcher::cancelReachesDeadWorker);
    if (board.finished(
            request.position(), verdict.status(), verdict.attempts(), now(), verdict.reason(), null)
        && step.runProfile() != null) {
      toAbandon.add(
          new AbandonStepRequest(request, verdict.attempts(), verdict.status(), verdict.reason()));
    }
  }

  private static boolean cancelReachesDeadWorker() {
    return Workflow.getVersion(CANCEL_REACHES_DEAD_WORKER, Workflow.DEFAULT_VERSION, 1)
        != Workflow.DEFAULT_VERSION;
  }

  /** Whether RunProfile steps ended without a result whose run records are still open. */
  boolean hasLeftovers() {
    return !toAbandon.isEmpty();
  }

  /**
   * Finalizes the run records of RunProfile steps that ended without a result, even when cancelled,
   * and names them in the steps' execution history.
   */
  void abandonLeftovers() {
    List<AbandonStepRequest> requests = List.copyOf(toAbandon);
    toAbandon.clear();
    Workflow.newDetachedCancellationScope(
            () -> {
              List<Promise<String>> calls = new ArrayList<>();
              for (AbandonStepRequest request : requests) {
                StepActivities activities =
                    Workflow.newActivityStub(
                        StepActivities.class,
                        ActivityOptions.newBuilder(StepOptions.ABANDON)
                            .setSummary("finalize " + StepOptions.summary(request.run().step()))
                            .build());
                calls.add(Async.function(activities::abandonStep, request));
              }
              for (int i = 0; i < calls.size(); i++) {
                try {
                  String runRecordId = calls.get(i).get();
                  if (history != null) {
                    // Executions begun before the result existed get null: nothing to name.
                    history.runRecord(requests.get(i).run().position(), runRecordId);
                  }
                } catch (ActivityFailure e) {
                  log.warn(
                      "Could not finalize step '{}': {}",
                      requests.get(i).run().step().name(),
                      e.getMessage());
                }
              }
            })
        .run();
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
