package io.jimflow.workitem;

import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.common.TaskQueues;
import io.temporal.activity.ActivityCancellationType;
import io.temporal.activity.ActivityOptions;
import io.temporal.api.enums.v1.TimeoutType;
import io.temporal.common.Priority;
import io.temporal.common.RetryOptions;
import io.temporal.common.converter.Values;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TimeoutFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInit;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;

/** The work manager of one work item; see {@link WorkItemWorkflow}. */
public class WorkItemWorkflowImpl implements WorkItemWorkflow {

  /** Seed 003: WorkItemFinished is limited to one minute and never retried. */
  static final Duration FINISHED_TIMEOUT = Duration.ofMinutes(1);

  /** How often a waiting item looks whether its predecessor has ended. */
  static final Duration PREDECESSOR_POLL = Duration.ofSeconds(10);

  /**
   * Pause before a queued run is offered again after its attempt ended without claiming the item.
   */
  static final Duration REQUEUE_DELAY = Duration.ofSeconds(5);

  /**
   * The server's hard bound lies this far behind max run time + grace, so the workflow's own kill
   * comes first.
   */
  static final Duration HARD_BOUND_MARGIN = Duration.ofSeconds(10);

  /**
   * The most log entries a restart carries on: a recurring item restarts without end, and the log
   * travels in every continue-as-new input, which Temporal limits in size.
   */
  static final int MAX_CARRIED_LOG = 1000;

  /**
   * Change id: a cancel also reaches an item ending for a shutdown or its max run time, and turns
   * an instance's restart into Cancelled. Executions begun before it keep the earlier rules.
   */
  static final String CANCEL_NEVER_LOST = "work-item-cancel-never-lost";

  private static final Logger log = Workflow.getLogger(WorkItemWorkflowImpl.class);

  private final int instance;
  private final List<WorkItemTransition> transitions;
  private WorkItemSpec spec;
  private int restartsUsed;
  private WorkItemState state;

  /**
   * Identifies the current run attempt; bumped whenever the queued attempt is withdrawn and when a
   * running attempt is abandoned (Killed), which fences that attempt's further writes.
   */
  private long runToken;

  private boolean changed;
  private boolean cancelRequested;
  private String cancelReason;
  private boolean shutdownRequested;
  private Instant runStartedAt;

  /** Whether this run follows {@link #CANCEL_NEVER_LOST}; decided when the item starts running. */
  private boolean cancelNeverLost;

  /** True while WorkItemFinished runs for an instance that a restart is to follow. */
  private boolean restartPending;

  private final WorkItemManagerActivities manager =
      Workflow.newActivityStub(
          WorkItemManagerActivities.class,
          ActivityOptions.newBuilder()
              .setStartToCloseTimeout(Duration.ofSeconds(30))
              .setRetryOptions(
                  RetryOptions.newBuilder()
                      .setInitialInterval(Duration.ofSeconds(1))
                      .setMaximumInterval(Duration.ofSeconds(30))
                      .build())
              .build());

  @WorkflowInit
  public WorkItemWorkflowImpl(WorkItemInput input) {
    this.spec = input.spec().withDefaults();
    this.instance = input.instance();
    this.restartsUsed = input.restartsUsed();
    this.transitions = new ArrayList<>(input.log());
  }

  @Override
  public WorkItemView run(WorkItemInput input) {
    begin();
    waitForStart();
    if (state == WorkItemState.Removing) {
      callFinished(WorkItemState.Removed, spec.stateJson(), false);
      apply(WorkItemEvent.REMOVAL_CONFIRMED, null);
      return show();
    }
    return runAndSupervise();
  }

  // ---- manager-owned part: waiting for the start condition and for a free slot ----

  private void waitForStart() {
    while (state.isManagerOwned() && state != WorkItemState.Removing) {
      changed = false;
      switch (state) {
        case Suspended -> Workflow.await(() -> changed);
        case WaitingForStart -> {
          Duration wait = Duration.between(now(), spec.startTime());
          if (wait.isNegative() || wait.isZero() || !Workflow.await(wait, () -> changed)) {
            if (spec.predecessorGuid() != null && !predecessorEnded()) {
              apply(WorkItemEvent.PREDECESSOR_PENDING, "waits for " + spec.predecessorGuid());
            } else {
              apply(WorkItemEvent.START_TIME_REACHED, null);
            }
          }
        }
        case WaitingForPredecessor -> {
          if (!Workflow.await(PREDECESSOR_POLL, () -> changed) && predecessorEnded()) {
            apply(WorkItemEvent.PREDECESSOR_ENDED, spec.predecessorGuid() + " has ended");
          }
        }
        case Queued -> offerRun();
        default -> throw new IllegalStateException("not a waiting state: " + state);
      }
    }
  }

  private boolean predecessorEnded() {
    return manager.predecessorEnded(new PredecessorQuery(spec.predecessorGuid()));
  }

  private CancellationScope runScope;
  private Promise<RunResult> runPromise;

  /** Schedules the run activity and waits until it claims the item, or the item leaves Queued. */
  private void offerRun() {
    long token = runToken;
    WorkItemActivities runs = Workflow.newActivityStub(WorkItemActivities.class, runOptions());
    RunInput input = new RunInput(spec.guid(), spec.kind(), instance, token);
    runScope = Workflow.newCancellationScope(() -> runPromise = Async.function(runs::run, input));
    runScope.run();
    Workflow.await(() -> state != WorkItemState.Queued || runPromise.isCompleted());
    if (state == WorkItemState.Running) {
      return;
    }
    if (state == WorkItemState.Queued) {
      // The attempt ended without claiming the item (its worker lost contact, say): offer it again.
      String why = failureMessage(runPromise);
      log.warn(
          "work item {}: run attempt ended before it started ({}); queued again", spec.guid(), why);
      runToken++;
      Workflow.await(REQUEUE_DELAY, () -> state != WorkItemState.Queued);
      return;
    }
    // Replaced, moved or cancelled while queued: withdraw the attempt; a late claim is refused by
    // token.
    runScope.cancel();
  }

  private ActivityOptions runOptions() {
    int key = WorkItemPriority.keyFor(spec.startTime(), now(), spec.expectedRunTime());
    return ActivityOptions.newBuilder()
        .setTaskQueue(TaskQueues.WORK_ITEM_RUNS)
        .setStartToCloseTimeout(spec.maxRunTime().plus(spec.gracePeriod()).plus(HARD_BOUND_MARGIN))
        .setHeartbeatTimeout(spec.heartbeatTimeout())
        // A lost attempt is not retried by Temporal: the lifecycle decides (Aborted →
        // AbortedRestart).
        .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
        .setPriority(Priority.newBuilder().setPriorityKey(key).build())
        .setCancellationType(ActivityCancellationType.TRY_CANCEL)
        .setSummary("run " + spec.kind() + " " + spec.guid())
        .build();
  }

  // ---- item-owned part: running, supervised ----

  private WorkItemView runAndSupervise() {
    cancelNeverLost =
        Workflow.getVersion(CANCEL_NEVER_LOST, Workflow.DEFAULT_VERSION, 1)
            != Workflow.DEFAULT_VERSION;
    Instant maxRunEnds = runStartedAt.plus(spec.maxRunTime());
    Instant graceEnds = null;
    boolean abandoned = false;
    Supplier<Boolean> wake =
        () ->
            runPromise.isCompleted()
                || (state == WorkItemState.Running && shutdownRequested)
                || watch(maxRunEnds, null).cancelToDeliver();
    while (!runPromise.isCompleted() && !abandoned) {
      Instant now = now();
      RunSupervision.Decision next = RunSupervision.next(watch(maxRunEnds, graceEnds), now);
      RunSupervision.Action action = next.action();
      switch (action) {
        case WAIT -> {
          if (next.wakeAt() == null) {
            Workflow.await(wake);
          } else {
            Workflow.await(Duration.between(now, next.wakeAt()), wake);
          }
        }
        case ABANDON -> {
          apply(
              action.event(),
              "did not end within the grace period of "
                  + spec.gracePeriod()
                  + "; attempt abandoned");
          abandoned = true;
          // A new token: the abandoned attempt's writes are refused from now on (its fence).
          runToken++;
          runScope.cancel();
        }
        default -> {
          apply(action.event(), supervisionNote(action));
          // A cancel reaching an item already in its grace period does not lengthen it.
          if (action.startsGrace() && graceEnds == null) {
            graceEnds = now.plus(spec.gracePeriod());
          }
        }
      }
    }
    if (!abandoned && watch(maxRunEnds, graceEnds).cancelToDeliver() && cancelNeverLost) {
      // The cancel came with the run's end, in one workflow task: the end counts as the reaction.
      apply(WorkItemEvent.CANCEL_REQUESTED, cancelReason);
    }
    String savedState = spec.stateJson();
    Instant successorStart = null;
    if (!abandoned) {
      try {
        RunResult result = runPromise.get();
        if (result.stateJson() != null) {
          savedState = result.stateJson();
        }
        if (result.shutdownSeen() && state == WorkItemState.Running) {
          apply(WorkItemEvent.SHUTDOWN_REQUESTED, "worker is shutting down");
        }
        if (result.error() != null) {
          apply(WorkItemEvent.RUN_FAILED, result.error());
        } else if (result.successorStartTime() != null) {
          apply(
              WorkItemEvent.RUN_RETURNED_WITH_SUCCESSOR,
              "successor planned for " + result.successorStartTime());
          successorStart = result.successorStartTime();
        } else if (result.done()) {
          apply(WorkItemEvent.RUN_RETURNED_DONE, null);
        } else {
          apply(WorkItemEvent.RUN_RETURNED, null);
        }
      } catch (ActivityFailure f) {
        if (f.getCause() instanceof TimeoutFailure timeout) {
          savedState = lastCheckpoint(timeout, savedState);
          if (timeout.getTimeoutType() == TimeoutType.TIMEOUT_TYPE_HEARTBEAT) {
            apply(
                WorkItemEvent.RUN_LOST,
                "no heartbeat within " + spec.heartbeatTimeout() + " (worker crashed or stopped)");
          } else {
            apply(WorkItemEvent.GRACE_EXPIRED, "the server's hard time bound hit the attempt");
          }
        } else {
          apply(WorkItemEvent.RUN_FAILED, messageOf(f));
        }
      }
    }
    return endInstance(savedState, successorStart);
  }

  private RunSupervision.Watch watch(Instant maxRunEnds, Instant graceEnds) {
    return new RunSupervision.Watch(
        state, maxRunEnds, graceEnds, cancelRequested, shutdownRequested, cancelNeverLost);
  }

  private String supervisionNote(RunSupervision.Action action) {
    return switch (action) {
      case ASK_TO_FINISH_CANCELLED -> cancelReason;
      case ASK_TO_FINISH_MAX_RUN_TIME -> "max run time " + spec.maxRunTime() + " reached";
      case ASK_TO_FINISH_SHUTDOWN -> "worker is shutting down";
      default -> null;
    };
  }

  private WorkItemView endInstance(String savedState, Instant successorStart) {
    if (cancelRequested && cancelNeverLost) {
      // Ended with a cancel pending (a handler that threw or whose worker died while cancelling):
      // Cancelled, not restarted.
      apply(WorkItemEvent.CANCEL_REQUESTED, "cancel requested: " + cancelReason + "; no restart");
    }
    WorkItemState ended = state;
    WorkItemState restart =
        ended == WorkItemState.Reschedule
            ? null
            : WorkItemLifecycle.restartAfter(ended, restartsUsed, spec.maxRestarts()).orElse(null);
    boolean restartFollows = ended == WorkItemState.Reschedule || restart != null;
    restartPending = restartFollows && ended != WorkItemState.Reschedule;
    boolean finishedOk = callFinished(ended, savedState, restartFollows);
    restartPending = false;
    if (restartFollows && cancelRequested && cancelNeverLost) {
      // Cancelled while WorkItemFinished ran: the restart does not happen.
      apply(WorkItemEvent.CANCEL_REQUESTED, "cancel requested: " + cancelReason + "; no restart");
      return show();
    }
    if (!restartFollows) {
      return show();
    }
    if (!finishedOk) {
      note("WorkItemFinished did not complete: the item stays " + ended + " without a successor");
      return show();
    }
    Instant nextStart;
    if (ended == WorkItemState.Reschedule) {
      nextStart = successorStart;
    } else {
      record(restart, null);
      if (WorkItemLifecycle.countsAgainstMaxRestarts(restart)) {
        restartsUsed++;
        nextStart = now().plus(jittered(spec.retryDelay()));
      } else {
        // After a shutdown or crash the item continues as soon as a worker takes it again.
        nextStart = now();
      }
    }
    Workflow.await(Workflow::isEveryHandlerFinished);
    WorkItemSpec next = spec.withState(savedState).withStartTime(nextStart);
    Workflow.continueAsNew(new WorkItemInput(next, instance + 1, restartsUsed, carriedLog()));
    throw new IllegalStateException("unreachable: continued as new");
  }

  private List<WorkItemTransition> carriedLog() {
    return carried(transitions, MAX_CARRIED_LOG);
  }

  /**
   * The log a restart carries on: all of it, or its newest {@code max - 1} entries after a note.
   */
  static List<WorkItemTransition> carried(List<WorkItemTransition> all, int max) {
    if (all.size() <= max) {
      return all;
    }
    List<WorkItemTransition> kept = new ArrayList<>(all.subList(all.size() - max + 1, all.size()));
    WorkItemTransition first = kept.get(0);
    int dropped = all.size() - kept.size();
    kept.add(
        0,
        new WorkItemTransition(
            first.instance(),
            first.from(),
            first.from(),
            first.at(),
            dropped + " earlier log entries dropped; the earlier runs' histories still hold them"));
    return kept;
  }

  private Duration jittered(Duration delay) {
    // Up to +25 %, so items that failed together do not all come back in the same instant.
    long extra = (long) (delay.toMillis() * 0.25 * Workflow.newRandom().nextDouble());
    return delay.plusMillis(extra);
  }

  /**
   * Calls WorkItemFinished once, detached from any cancellation; false when it failed or overran.
   */
  private boolean callFinished(WorkItemState finalState, String stateJson, boolean restartFollows) {
    WorkItemActivities finisher =
        Workflow.newActivityStub(
            WorkItemActivities.class,
            ActivityOptions.newBuilder()
                .setTaskQueue(TaskQueues.WORK_ITEM_RUNS)
                .setStartToCloseTimeout(FINISHED_TIMEOUT)
                .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
                .setPriority(Priority.newBuilder().setPriorityKey(1).build())
                .setSummary("finished " + spec.kind() + " " + spec.guid() + " " + finalState)
                .build());
    FinishedInput input =
        new FinishedInput(
            spec.guid(), spec.kind(), instance, finalState, stateJson, restartFollows);
    boolean[] ok = {false};
    Workflow.newDetachedCancellationScope(
            () -> {
              try {
                finisher.finished(input);
                ok[0] = true;
              } catch (ActivityFailure f) {
                String why =
                    f.getCause() instanceof TimeoutFailure
                        ? "WorkItemFinished overran its limit of " + FINISHED_TIMEOUT
                        : "WorkItemFinished failed: " + messageOf(f);
                log.error("work item {} instance {}: {}; not retried", spec.guid(), instance, why);
                note(why);
              }
            })
        .run();
    return ok[0];
  }

  // ---- updates, signals, query ----

  @Override
  public void validateSchedule(WorkItemSpec newSpec) {
    WorkItemSpec s = newSpec == null ? null : newSpec.withDefaults();
    if (s == null) {
      throw refuse("schedule: a work item spec is required");
    }
    List<String> problems = s.problems();
    if (!problems.isEmpty()) {
      throw refuse("work item " + s.guid() + ": " + String.join("; ", problems));
    }
    if (!s.guid().equals(spec.guid())) {
      throw refuse("work item " + spec.guid() + ": spec names another guid " + s.guid());
    }
    WorkItemState current = currentState();
    if (instance > 1 || !WorkItemLifecycle.isReplaceable(current)) {
      throw refuse(
          "work item "
              + spec.guid()
              + " has already started (state "
              + current
              + ", instance "
              + instance
              + "): it owns itself and cannot be re-scheduled; cancel it or use another guid");
    }
  }

  @Override
  public WorkItemView schedule(WorkItemSpec newSpec) {
    begin();
    // Updates accepted in one workflow task run one after the other: check again what the validator
    // saw.
    validateSchedule(newSpec);
    WorkItemSpec s = newSpec.withDefaults();
    if (s.sameAs(spec)) {
      return show();
    }
    spec = s;
    apply(
        s.startTime() == null
            ? WorkItemEvent.REPLACED_SUSPENDED
            : WorkItemEvent.REPLACED_WITH_START_TIME,
        "replaced by a new schedule");
    changed = true;
    return show();
  }

  @Override
  public void validateChangeStartTime(StartTimeChange change) {
    if (change == null || change.startTime() == null) {
      throw refuse("work item " + spec.guid() + ": changeStartTime needs a start time");
    }
    WorkItemState current = currentState();
    if (WorkItemLifecycle.next(current, WorkItemEvent.START_TIME_CHANGED).isEmpty()) {
      throw refuse(
          "work item "
              + spec.guid()
              + " is "
              + current
              + ": only a planned item's start time can change");
    }
  }

  @Override
  public WorkItemView changeStartTime(StartTimeChange change) {
    begin();
    validateChangeStartTime(change);
    spec = spec.withStartTime(change.startTime());
    apply(WorkItemEvent.START_TIME_CHANGED, "start time " + change.startTime());
    changed = true;
    return show();
  }

  @Override
  public void validateCancel(CancelRequest request) {
    WorkItemState current = currentState();
    boolean beforeRestart = restartPending && cancelNeverLost;
    if ((current.hasEnded() && !beforeRestart)
        || current == WorkItemState.Removing
        || cancelRequested) {
      String why =
          current == WorkItemState.Reschedule
              ? ": it has planned its successor; cancel again to remove that"
              : ": nothing to cancel";
      throw refuse("work item " + spec.guid() + " is " + current + why);
    }
  }

  @Override
  public WorkItemView cancel(CancelRequest request) {
    begin();
    validateCancel(request);
    String reason = request == null || request.reason() == null ? "cancelled" : request.reason();
    if (WorkItemLifecycle.isReplaceable(state)) {
      apply(WorkItemEvent.CANCEL_REQUESTED, reason);
      changed = true;
    } else {
      // Running: the supervision loop delivers it (CancellingByUser), also to an item ending for a
      // shutdown or its max run time; an instance that ended awaiting its restart ends Cancelled.
      cancelRequested = true;
      cancelReason = reason;
      if (state != WorkItemState.Running) {
        note("cancel requested while " + state + ": " + reason);
      }
    }
    return show();
  }

  @Override
  public void validateClaimRun(RunClaim claim) {
    if (currentState() != WorkItemState.Queued || claim == null || claim.token() != runToken) {
      throw refuse("work item " + spec.guid() + " is no longer queued for this attempt");
    }
  }

  @Override
  public RunGrant claimRun(RunClaim claim) {
    // A replacement or cancel accepted in the same workflow task may have run first.
    validateClaimRun(claim);
    apply(WorkItemEvent.RUN_CLAIMED, null);
    runStartedAt = now();
    return new RunGrant(spec.guid(), spec.kind(), instance, spec.stateJson());
  }

  @Override
  public void shutdownRequested(ShutdownNotice notice) {
    if (notice != null && notice.token() == runToken) {
      shutdownRequested = true;
    }
  }

  @Override
  public RunAttempt attempt() {
    return new RunAttempt(instance, runToken, currentState());
  }

  @Override
  public WorkItemView show() {
    WorkItemState current = currentState();
    return new WorkItemView(
        spec.guid(),
        spec.kind(),
        current,
        current.category(),
        instance,
        restartsUsed,
        spec.maxRestarts(),
        spec.startTime(),
        spec.predecessorGuid(),
        spec.stateJson(),
        transitions);
  }

  // ---- state bookkeeping ----

  private WorkItemState currentState() {
    return state != null ? state : WorkItemLifecycle.initialState(spec.startTime() != null);
  }

  /**
   * Enters the instance's first state; handlers may run before the workflow method, so both call
   * it.
   */
  private void begin() {
    if (state != null) {
      return;
    }
    WorkItemState previous =
        transitions.isEmpty() ? null : transitions.get(transitions.size() - 1).to();
    WorkItemState first = WorkItemLifecycle.initialState(spec.startTime() != null);
    if (previous != null && !WorkItemLifecycle.isAllowed(previous, first)) {
      throw new IllegalStateException("instance cannot begin " + first + " after " + previous);
    }
    state = first;
    transitions.add(new WorkItemTransition(instance, previous, first, now(), null));
    publish();
  }

  private boolean apply(WorkItemEvent event, String note) {
    return WorkItemLifecycle.next(state, event).map(to -> record(to, note)).orElse(false);
  }

  private boolean record(WorkItemState to, String note) {
    if (!WorkItemLifecycle.isAllowed(state, to)) {
      throw new IllegalStateException(
          "transition " + state + " → " + to + " is not in the lifecycle");
    }
    if (state == WorkItemState.Queued && to != WorkItemState.Running) {
      runToken++;
    }
    transitions.add(new WorkItemTransition(instance, state, to, now(), note));
    state = to;
    publish();
    return true;
  }

  private void note(String text) {
    transitions.add(new WorkItemTransition(instance, state, state, now(), text));
  }

  private void publish() {
    Workflow.upsertTypedSearchAttributes(
        JimflowSearchAttributes.WORK_ITEM_STATE.valueSet(state.name()),
        JimflowSearchAttributes.WORK_ITEM_KIND.valueSet(spec.kind()));
    Workflow.setCurrentDetails(
        "work item "
            + spec.kind()
            + " "
            + spec.guid()
            + ": "
            + state
            + " (instance "
            + instance
            + ")");
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }

  private static String lastCheckpoint(TimeoutFailure timeout, String fallback) {
    Values details = timeout.getLastHeartbeatDetails();
    if (details == null || details.getSize() == 0) {
      return fallback;
    }
    RunCheckpoint checkpoint = details.get(RunCheckpoint.class);
    return checkpoint == null || checkpoint.stateJson() == null ? fallback : checkpoint.stateJson();
  }

  private static String failureMessage(Promise<RunResult> promise) {
    Exception e = promise.getFailure();
    return e == null ? "not claimed" : messageOf(e);
  }

  private static String messageOf(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
  }

  private static ApplicationFailure refuse(String message) {
    return ApplicationFailure.newNonRetryableFailure(message, "WorkItemRefused");
  }
}
