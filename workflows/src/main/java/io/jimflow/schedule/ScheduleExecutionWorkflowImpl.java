package io.jimflow.schedule;

import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.resource.ResourceLocks;
import io.jimflow.resource.ResourceNotice;
import io.jimflow.resource.Resources;
import io.jimflow.schedule.StepGroups.PlannedStep;
import io.jimflow.schedule.StepGroups.StepGroup;
import io.temporal.activity.ActivityOptions;
import io.temporal.api.enums.v1.RetryState;
import io.temporal.api.enums.v1.TimeoutType;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TimeoutFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Runs a schedule's step groups one after the other, each group's steps as parallel activities, and
 * applies the failure policy after every group.
 *
 * <p>It keeps the search attributes {@code JimflowScheduleId}, {@code JimflowStatus} (an {@link
 * ExecutionStatus} name) and {@code JimflowStepGroup} (the 1-based position of the group under way,
 * as in "group 2 of 4"; 0 before the first) current, and shows the step rail as current details.
 * Steps are started with {@link StepOptions#forStep}; a group starts at most {@code
 * maxParallelSteps} of its steps at once and starts the next as soon as one ends.
 *
 * <p>A RunProfile step first takes the resources it touches (its connected system; the metaverse
 * for a synchronisation) from their {@code ResourceLockWorkflow}s and gives them back when it ends,
 * so that no two runs touch one connected system at once; meanwhile it stays Waiting with a message
 * that names the resource, its holder and since when.
 */
public class ScheduleExecutionWorkflowImpl implements ScheduleExecutionWorkflow {

  private static final Logger log = Workflow.getLogger(ScheduleExecutionWorkflowImpl.class);

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

  /** RunProfile steps hold their resources exclusively from this version on. */
  static final String RESOURCE_EXCLUSION = Resources.EXCLUSION_CHANGE_ID;

  /**
   * Change id: a step attempt interrupted because its worker was stopped in order (SIGTERM) is
   * resumed from its checkpoint by a new run of the step, after a pause, without counting as an
   * attempt; executions begun before it let the attempt fail.
   */
  static final String RESUME_AFTER_WORKER_STOP = "step-resume-after-worker-stop";

  /** Bounds the resumptions of one step, so that a worker stopping again and again ends it. */
  static final int MAXIMUM_RESUMPTIONS = 20;

  private final ResourceLocks locks = new ResourceLocks();
  private int exclusionVersion = Workflow.DEFAULT_VERSION;

  private ScheduleDefinition definition;
  private ScheduleExecutionInput input;
  private StepGroups plan;
  private StepBoard board;
  private ExecutionStatus status = ExecutionStatus.InProgress;
  private int currentGroup;
  private String message;

  private int running;
  private int ended;
  private final List<AbandonStepRequest> toAbandon = new ArrayList<>();
  private boolean railStale;
  private ExecutionHistory history;
  private Instant startedAt;

  @Override
  public ExecutionResult run(ScheduleExecutionInput input) {
    if (input == null || input.definition() == null || input.definition().steps().isEmpty()) {
      // Failing the workflow (not its task) keeps a malformed start from retrying forever.
      throw ApplicationFailure.newNonRetryableFailure(
          "A schedule execution needs a schedule definition with at least one step",
          StepFailures.INVALID_INPUT);
    }
    this.input = input;
    this.exclusionVersion = Workflow.getVersion(RESOURCE_EXCLUSION, Workflow.DEFAULT_VERSION, 1);
    this.definition = input.definition();
    this.plan = StepGroups.plan(definition.steps());
    this.board = new StepBoard(plan);
    startedAt = now();
    if (Workflow.getVersion(ExecutionHistory.CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1) {
      history = new ExecutionHistory(plan);
      recordHistory();
    }
    Workflow.upsertTypedSearchAttributes(
        JimflowSearchAttributes.SCHEDULE_ID.valueSet(definition.id()),
        JimflowSearchAttributes.STATUS.valueSet(status.name()),
        JimflowSearchAttributes.STEP_GROUP.valueSet(0L));
    railStale = true;

    boolean cancelled = false;
    GroupVerdict stoppedBy = null;
    List<StepOutcome> tolerated = new ArrayList<>();
    CancellationScope root = CancellationScope.current();
    for (int g = 0; g < plan.count() && !cancelled; g++) {
      if (root.isCancelRequested()) {
        cancelled = true;
        break;
      }
      if (g > 0) {
        // The groups that ended; the last group's steps go with the execution's end.
        recordHistory();
      }
      StepGroup group = plan.groups().get(g);
      currentGroup = g + 1;
      Workflow.upsertTypedSearchAttributes(
          JimflowSearchAttributes.STEP_GROUP.valueSet((long) currentGroup));
      railStale = true;
      try {
        runGroup(group, root);
      } catch (CanceledFailure e) {
        // Cancelled steps end only once their runner has stopped (WAIT_CANCELLATION_COMPLETED).
        Workflow.newDetachedCancellationScope(() -> await(() -> running == 0)).run();
        cancelled = anyUnfinished(group) || board.count(StepStatus.Waiting) > 0;
      }
      abandonLeftovers();
      if (cancelled) {
        break;
      }
      GroupVerdict verdict =
          FailurePolicies.afterGroup(group, board.byPosition(), definition.onStepFailure());
      tolerated.addAll(verdict.tolerated());
      if (verdict.stop()) {
        stoppedBy = verdict;
        break;
      }
    }

    int skipped = board.skipWaiting();
    status = FailurePolicies.finalStatus(cancelled, stoppedBy != null, board.all());
    message = finalMessage(stoppedBy, tolerated, skipped);
    ExecutionResult result =
        new ExecutionResult(
            definition.id(), definition.name(), status, message, startedAt, now(), board.all());
    recordHistory();
    if (history != null) {
      history.awaitWrites();
    }
    Workflow.upsertTypedSearchAttributes(JimflowSearchAttributes.STATUS.valueSet(status.name()));
    showRail();
    log.info("Schedule {} ended {}: {}", definition.id(), status, message);
    switch (status) {
      case Cancelled -> throw new CanceledFailure(message);
      case Failed ->
          throw ApplicationFailure.newNonRetryableFailure(
              message, StepFailures.EXECUTION_FAILED, result);
      default -> {
        return result;
      }
    }
  }

  @Override
  public ExecutionProgress progress() {
    if (definition == null) {
      return new ExecutionProgress(null, null, status, 0, 0, null, List.of());
    }
    return new ExecutionProgress(
        definition.id(),
        definition.name(),
        status,
        currentGroup,
        plan.count(),
        message,
        board.all());
  }

  @Override
  public void stepAttemptStarted(StepAttempt attempt) {
    if (board != null && board.attemptStarted(attempt.position(), attempt.attempt())) {
      showRail();
    }
  }

  @Override
  public void resourceNotice(ResourceNotice notice) {
    locks.onNotice(notice);
  }

  /**
   * Starts the group's steps, at most {@code maxParallelSteps} at once, and returns when every
   * started step has ended. Throws CanceledFailure when the execution is cancelled meanwhile.
   */
  private void runGroup(StepGroup group, CancellationScope root) {
    Deque<PlannedStep> waiting = new ArrayDeque<>(group.steps());
    int limit = input.settings().maxParallelSteps();
    while (!waiting.isEmpty() || running > 0) {
      while (running < limit && !waiting.isEmpty()) {
        if (root.isCancelRequested()) {
          throw new CanceledFailure("cancelled before all steps of the group started");
        }
        start(waiting.poll());
      }
      int endedBefore = ended;
      await(() -> ended != endedBefore);
    }
    if (root.isCancelRequested()) {
      throw new CanceledFailure("cancelled while the group ran");
    }
  }

  private void start(PlannedStep planned) {
    StepDefinition step = planned.definition();
    StepRunRequest request =
        new StepRunRequest(
            planned.position(),
            Workflow.getInfo().getWorkflowId(),
            definition.id(),
            input.initiator(),
            step);
    ActivityOptions options =
        StepOptions.forStep(
            step,
            Workflow.getVersion(TIMEOUT_BOUNDS_WHOLE_STEP, Workflow.DEFAULT_VERSION, 1)
                != Workflow.DEFAULT_VERSION);
    StepActivities activities = Workflow.newActivityStub(StepActivities.class, options);
    if (exclusionVersion >= 1 && step.runProfile() != null) {
      running++;
      railStale = true;
      Async.procedure(() -> runHoldingResources(planned, request, activities, options));
      return;
    }
    board.started(planned.position(), now());
    running++;
    railStale = true;
    Promise<StepRunResult> promise = Async.function(activities::runStep, request);
    // Each step is handled on its own: one failing never cancels its siblings.
    promise.handle(
        (result, failure) -> {
          if (failure instanceof ActivityFailure stopped && workerStopped(stopped) != null) {
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
          result.status(),
          result.attempt(),
          now(),
          result.message(),
          result.stats());
    } else {
      recordFailure(request, failure);
    }
    railStale = true;
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
    StepHeartbeat checkpoint = workerStopped(stopped);
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
        checkpoint = workerStopped(e);
      }
    }
    throw last;
  }

  /**
   * The progress of the attempt that {@code failure} ended because its worker was stopped, or null
   * when it failed otherwise.
   */
  static StepHeartbeat workerStopped(ActivityFailure failure) {
    if (failure.getCause() instanceof ApplicationFailure app
        && StepFailures.WORKER_STOPPED.equals(app.getType())) {
      try {
        if (app.getDetails().getSize() > 0) {
          return app.getDetails().get(0, StepHeartbeat.class);
        }
      } catch (RuntimeException unreadable) {
        // Without its progress the step resumes from its stored checkpoint only.
      }
      return new StepHeartbeat(0, -1, null, 1);
    }
    return null;
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
    try {
      List<String> resources =
          locks.resourcesOf(step.runProfile().connectedSystem(), step.runProfile().runProfile());
      held =
          locks.acquire(
              resources,
              Integer.toString(position),
              definition.name() + " / " + step.name(),
              waiting -> {
                board.waitingFor(position, waiting.describeWait());
                // The main thread is blocked until a step ends; the rail shows it now.
                showRail();
              });
      board.started(position, now());
      showRail();
      StepRunResult result;
      try {
        result = activities.runStep(request);
      } catch (ActivityFailure e) {
        if (workerStopped(e) == null) {
          throw e;
        }
        result = resume(request, options, e);
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
      railStale = true;
    }
  }

  private void recordFailure(StepRunRequest request, RuntimeException failure) {
    StepDefinition step = request.step();
    int attempts = Math.max(1, board.get(request.position()).attempts());
    StepStatus stepStatus = StepStatus.FailedWithError;
    String reason = failure.getMessage();
    if (failure instanceof CanceledFailure) {
      stepStatus = StepStatus.Cancelled;
      reason = "cancelled";
    }
    if (failure instanceof ActivityFailure activityFailure) {
      Throwable cause = activityFailure.getCause();
      if (activityFailure.getRetryState() == RetryState.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED) {
        attempts = Math.max(attempts, StepOptions.maximumAttempts(step));
      }
      if (cause instanceof CanceledFailure) {
        stepStatus = StepStatus.Cancelled;
        reason = "cancelled";
      } else if (cause instanceof TimeoutFailure timeout
          && cancelledBeforeItsTimeout(activityFailure)
          && cancelReachesDeadWorker()) {
        // G7: the cancel could not reach a dead worker; the server ends the step by its timeout
        // and never retries a step whose cancel was requested.
        stepStatus = StepStatus.Cancelled;
        reason =
            "cancelled; its worker did not confirm: "
                + describeTimeout(step, timeout.getTimeoutType());
      } else if (cause instanceof ApplicationFailure app) {
        reason = app.getOriginalMessage();
        attempts = Math.max(attempts, failedAttempt(app));
      } else if (cause instanceof TimeoutFailure timeout) {
        reason = describeTimeout(step, timeout.getTimeoutType());
        attempts = Math.max(attempts, heartbeatAttempt(timeout));
      } else if (cause != null) {
        reason = cause.getMessage();
      }
      if (attempts > 1 && stepStatus != StepStatus.Cancelled && reason != null) {
        // On the first line, which is what the execution's message quotes.
        int lineEnd = reason.indexOf('\n');
        String suffix = " (after " + attempts + " attempts)";
        reason =
            lineEnd < 0
                ? reason + suffix
                : reason.substring(0, lineEnd) + suffix + reason.substring(lineEnd);
      }
    }
    if (board.finished(request.position(), stepStatus, attempts, now(), reason, null)
        && step.runProfile() != null) {
      toAbandon.add(new AbandonStepRequest(request, attempts, stepStatus, reason));
    }
  }

  /**
   * True when the step timed out after its cancel was requested: its worker never confirmed the
   * cancel (it is dead or hangs), and the server does not retry a step whose cancel was requested.
   */
  static boolean cancelledBeforeItsTimeout(ActivityFailure failure) {
    return failure.getCause() instanceof TimeoutFailure
        && failure.getRetryState() == RetryState.RETRY_STATE_CANCEL_REQUESTED;
  }

  private static boolean cancelReachesDeadWorker() {
    return Workflow.getVersion(CANCEL_REACHES_DEAD_WORKER, Workflow.DEFAULT_VERSION, 1)
        != Workflow.DEFAULT_VERSION;
  }

  private static int failedAttempt(ApplicationFailure failure) {
    try {
      if (failure.getDetails().getSize() > 0) {
        return failure.getDetails().get(0, StepFailureDetails.class).attempt();
      }
    } catch (RuntimeException notOurs) {
      // A failure raised outside the step runner carries no attempt; the other sources remain.
    }
    return 0;
  }

  private static int heartbeatAttempt(TimeoutFailure timeout) {
    try {
      if (timeout.getLastHeartbeatDetails().getSize() > 0) {
        return timeout.getLastHeartbeatDetails().get(0, StepHeartbeat.class).attempt();
      }
    } catch (RuntimeException notOurs) {
      // No heartbeat of ours recorded; the other sources remain.
    }
    return 0;
  }

  private static String describeTimeout(StepDefinition step, TimeoutType type) {
    return switch (type) {
      case TIMEOUT_TYPE_START_TO_CLOSE ->
          (step.attemptTimeout() == null ? "timed out after " : "an attempt timed out after ")
              + StepOptions.attemptTimeout(step);
      case TIMEOUT_TYPE_SCHEDULE_TO_CLOSE ->
          "timed out after "
              + StepOptions.timeout(step)
              + " (the step's timeout, across all its attempts)";
      case TIMEOUT_TYPE_HEARTBEAT ->
          "lost: no heartbeat within "
              + (step.heartbeatTimeout() == null
                  ? StepOptions.DEFAULT_HEARTBEAT_TIMEOUT
                  : step.heartbeatTimeout())
              + " (its worker stopped or hangs)";
      default -> "timed out (" + type + ")";
    };
  }

  /**
   * Finalizes the run records of RunProfile steps that ended without a result, even when cancelled,
   * and names them in the steps' execution history.
   */
  private void abandonLeftovers() {
    if (toAbandon.isEmpty()) {
      return;
    }
    List<AbandonStepRequest> requests = List.copyOf(toAbandon);
    toAbandon.clear();
    showStaleRail();
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

  /** Writes the execution's record as it stands (no-op for executions begun before it existed). */
  private void recordHistory() {
    if (history == null) {
      return;
    }
    history.write(
        new ExecutionRecord(
            Workflow.getInfo().getWorkflowId(),
            Workflow.getInfo().getRunId(),
            definition.id(),
            definition.name(),
            input.trigger(),
            input.initiator(),
            status,
            message,
            plan.count(),
            board.all().size(),
            startedAt,
            status.isFinal() ? now() : null,
            List.of()),
        board);
  }

  private boolean anyUnfinished(StepGroup group) {
    return group.steps().stream()
        .map(p -> board.get(p.position()).status())
        .anyMatch(st -> !st.isFinal() || st == StepStatus.Cancelled);
  }

  private String finalMessage(GroupVerdict stoppedBy, List<StepOutcome> tolerated, int skipped) {
    if (status == ExecutionStatus.Cancelled) {
      return "Cancelled during step group "
          + currentGroup
          + " of "
          + plan.count()
          + ": "
          + board.count(StepStatus.Cancelled)
          + " step(s) cancelled, "
          + skipped
          + " skipped";
    }
    if (stoppedBy != null) {
      return "Stopped after step group "
          + currentGroup
          + " of "
          + plan.count()
          + ": "
          + stoppedBy.describeStopping()
          + (stoppedBy.stopping().size() == 1 ? " and does" : " and do")
          + " not continue on failure; "
          + skipped
          + " later step(s) skipped";
    }
    if (!tolerated.isEmpty()) {
      return "Completed with errors (continued on failure): " + GroupVerdict.describe(tolerated);
    }
    return "All " + board.all().size() + " step(s) complete";
  }

  /**
   * Blocks until {@code unblocked} holds, showing the step rail first if it changed: a workflow
   * task ends only when the workflow blocks, so the rail is rendered once per task, not once per
   * change (a group of 500 steps would otherwise render it 500 times as it starts).
   */
  private void await(Supplier<Boolean> unblocked) {
    showStaleRail();
    Workflow.await(unblocked);
  }

  private void showStaleRail() {
    if (railStale) {
      showRail();
    }
  }

  private void showRail() {
    railStale = false;
    Workflow.setCurrentDetails(board.rail(definition.name(), status, currentGroup, message));
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
