package io.jimflow.workitem;

import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInit;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import org.slf4j.Logger;

/** The work manager of one work item; see {@link WorkItemWorkflow}. */
public class WorkItemWorkflowImpl implements WorkItemWorkflow {

  /** How often a waiting item looks whether its predecessor has ended. */
  public static final Duration PREDECESSOR_POLL = Duration.ofSeconds(10);

  /**
   * Pause before a queued run is offered again after its attempt ended without claiming the item.
   */
  static final Duration REQUEUE_DELAY = Duration.ofSeconds(5);

  /**
   * Change id: a cancel also reaches an item ending for a shutdown or its max run time, and turns
   * an instance's restart into Cancelled. Executions begun before it keep the earlier rules.
   */
  static final String CANCEL_NEVER_LOST = "work-item-cancel-never-lost";

  private static final Logger log = Workflow.getLogger(WorkItemWorkflowImpl.class);

  private final int instance;
  private final WorkItemJournal journal;
  private WorkItemSpec spec;
  private int restartsUsed;

  private boolean changed;
  private boolean cancelRequested;
  private String cancelReason;
  private boolean shutdownRequested;
  private Instant runStartedAt;
  private boolean refused; // the run worker refused the item: no restart follows

  /** Whether this run follows {@link #CANCEL_NEVER_LOST}; decided when the item starts running. */
  private boolean cancelNeverLost;

  /** True while WorkItemFinished runs for an instance that a restart is to follow. */
  private boolean restartPending;

  private final WorkItemManagerActivities manager =
      Workflow.newActivityStub(WorkItemManagerActivities.class, WorkItemActivityOptions.MANAGER);

  @WorkflowInit
  public WorkItemWorkflowImpl(WorkItemInput input) {
    this.spec = input.spec().withDefaults();
    this.instance = input.instance();
    this.restartsUsed = input.restartsUsed();
    this.journal = new WorkItemJournal(instance, () -> spec, input.log());
  }

  @Override
  public WorkItemView run(WorkItemInput input) {
    journal.begin();
    waitForStart();
    if (journal.state() == WorkItemState.Removing) {
      callFinished(WorkItemState.Removed, spec.stateJson(), false);
      journal.apply(WorkItemEvent.REMOVAL_CONFIRMED, null);
      return show();
    }
    return runAndSupervise();
  }

  // ---- manager-owned part: waiting for the start condition and for a free slot ----

  private void waitForStart() {
    while (journal.state().isManagerOwned() && journal.state() != WorkItemState.Removing) {
      changed = false;
      switch (journal.state()) {
        case Suspended -> Workflow.await(() -> changed);
        case WaitingForStart -> {
          Duration wait = Duration.between(now(), spec.startTime());
          if (wait.isNegative() || wait.isZero() || !Workflow.await(wait, () -> changed)) {
            if (spec.predecessorGuid() != null && !predecessorEnded()) {
              String waitsFor = "waits for " + spec.predecessorGuid();
              journal.apply(WorkItemEvent.PREDECESSOR_PENDING, waitsFor);
            } else {
              journal.apply(WorkItemEvent.START_TIME_REACHED, null);
            }
          }
        }
        case WaitingForPredecessor -> {
          if (!Workflow.await(PREDECESSOR_POLL, () -> changed) && predecessorEnded()) {
            journal.apply(WorkItemEvent.PREDECESSOR_ENDED, spec.predecessorGuid() + " has ended");
          }
        }
        case Queued -> offerRun();
        default -> throw new IllegalStateException("not a waiting state: " + journal.state());
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
    long token = journal.runToken();
    WorkItemActivities runs =
        Workflow.newActivityStub(
            WorkItemActivities.class, WorkItemActivityOptions.run(spec, now()));
    RunInput input = RunInput.of(spec, instance, token);
    runScope = Workflow.newCancellationScope(() -> runPromise = Async.function(runs::run, input));
    runScope.run();
    Workflow.await(() -> journal.state() != WorkItemState.Queued || runPromise.isCompleted());
    if (journal.state() == WorkItemState.Running) {
      return;
    }
    if (journal.state() == WorkItemState.Queued) {
      // The attempt ended without claiming the item (its worker lost contact, say): offer it again.
      String why = failureMessage(runPromise);
      log.warn(
          "work item {}: run attempt ended before it started ({}); queued again", spec.guid(), why);
      journal.newRunToken();
      Workflow.await(REQUEUE_DELAY, () -> journal.state() != WorkItemState.Queued);
      return;
    }
    // Replaced, moved or cancelled while queued: withdraw the attempt; a late claim is refused by
    // token.
    runScope.cancel();
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
                || (journal.state() == WorkItemState.Running && shutdownRequested)
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
          journal.apply(
              action.event(),
              "did not end within the grace period of "
                  + spec.gracePeriod()
                  + "; attempt abandoned");
          abandoned = true;
          // A new token: the abandoned attempt's writes are refused from now on (its fence).
          journal.newRunToken();
          runScope.cancel();
        }
        default -> {
          journal.apply(action.event(), action.note(cancelReason, spec.maxRunTime()));
          // A cancel reaching an item already in its grace period does not lengthen it.
          if (action.startsGrace() && graceEnds == null) {
            graceEnds = now.plus(spec.gracePeriod());
          }
        }
      }
    }
    if (!abandoned && watch(maxRunEnds, graceEnds).cancelToDeliver() && cancelNeverLost) {
      // The cancel came with the run's end, in one workflow task: the end counts as the reaction.
      journal.apply(WorkItemEvent.CANCEL_REQUESTED, cancelReason);
    }
    if (abandoned) {
      return endInstance(spec.stateJson(), null);
    }
    RunEnding ending;
    try {
      RunResult result = runPromise.get();
      refused = result.refused();
      ending =
          RunEnding.returned(result, journal.state() == WorkItemState.Running, spec.stateJson());
    } catch (ActivityFailure f) {
      ending = RunEnding.failed(f, spec.heartbeatTimeout(), spec.stateJson());
    }
    ending.moves().forEach(move -> journal.apply(move.event(), move.note()));
    return endInstance(ending.savedState(), ending.successorStart());
  }

  private RunSupervision.Watch watch(Instant maxRunEnds, Instant graceEnds) {
    return new RunSupervision.Watch(
        journal.state(),
        maxRunEnds,
        graceEnds,
        cancelRequested,
        shutdownRequested,
        cancelNeverLost);
  }

  private WorkItemView endInstance(String savedState, Instant successorStart) {
    if (cancelRequested && cancelNeverLost) {
      // Ended with a cancel pending (a handler that threw or whose worker died while cancelling):
      // Cancelled, not restarted.
      cancelInsteadOfRestart();
    }
    WorkItemState ended = journal.state();
    WorkItemState restart =
        ended == WorkItemState.Reschedule
            ? null
            : WorkItemLifecycle.restartAfter(ended, restartsUsed, refused ? 0 : spec.maxRestarts())
                .orElse(null);
    boolean restartFollows = ended == WorkItemState.Reschedule || restart != null;
    restartPending = restartFollows && ended != WorkItemState.Reschedule;
    boolean finishedOk = callFinished(ended, savedState, restartFollows);
    restartPending = false;
    if (restartFollows && cancelRequested && cancelNeverLost) {
      // Cancelled while WorkItemFinished ran: the restart does not happen.
      cancelInsteadOfRestart();
      return show();
    }
    if (!restartFollows) {
      return show();
    }
    if (!finishedOk) {
      journal.note(
          "WorkItemFinished did not complete: the item stays " + ended + " without a successor");
      return show();
    }
    Instant nextStart;
    if (ended == WorkItemState.Reschedule) {
      nextStart = successorStart;
    } else {
      journal.record(restart, null);
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
    Workflow.continueAsNew(new WorkItemInput(next, instance + 1, restartsUsed, journal.carried()));
    throw new IllegalStateException("unreachable: continued as new");
  }

  private void cancelInsteadOfRestart() {
    journal.apply(
        WorkItemEvent.CANCEL_REQUESTED, "cancel requested: " + cancelReason + "; no restart");
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
    return WorkItemFinisher.call(journal, spec, instance, finalState, stateJson, restartFollows);
  }

  // ---- updates, signals, query ----

  @Override
  public void validateSchedule(WorkItemSpec newSpec) {
    WorkItemSpec requested = newSpec == null ? null : newSpec.withDefaults();
    WorkItemRequests.refuseSchedule(spec, requested, journal.current(), instance)
        .ifPresent(WorkItemWorkflowImpl::refuse);
  }

  @Override
  public WorkItemView schedule(WorkItemSpec newSpec) {
    journal.begin();
    // Updates accepted in one workflow task run one after the other: check again what the validator
    // saw.
    validateSchedule(newSpec);
    WorkItemSpec s = newSpec.withDefaults();
    if (s.sameAs(spec)) {
      return show();
    }
    spec = s;
    journal.apply(
        s.startTime() == null
            ? WorkItemEvent.REPLACED_SUSPENDED
            : WorkItemEvent.REPLACED_WITH_START_TIME,
        "replaced by a new schedule");
    changed = true;
    return show();
  }

  @Override
  public void validateChangeStartTime(StartTimeChange change) {
    WorkItemRequests.refuseStartTimeChange(spec.guid(), change, journal.current())
        .ifPresent(WorkItemWorkflowImpl::refuse);
  }

  @Override
  public WorkItemView changeStartTime(StartTimeChange change) {
    journal.begin();
    validateChangeStartTime(change);
    spec = spec.withStartTime(change.startTime());
    journal.apply(WorkItemEvent.START_TIME_CHANGED, "start time " + change.startTime());
    changed = true;
    return show();
  }

  @Override
  public void validateCancel(CancelRequest request) {
    boolean awaitingRestart = restartPending && cancelNeverLost;
    WorkItemRequests.refuseCancel(spec.guid(), journal.current(), awaitingRestart, cancelRequested)
        .ifPresent(WorkItemWorkflowImpl::refuse);
  }

  @Override
  public WorkItemView cancel(CancelRequest request) {
    journal.begin();
    validateCancel(request);
    String reason = request == null || request.reason() == null ? "cancelled" : request.reason();
    if (WorkItemLifecycle.isReplaceable(journal.state())) {
      journal.apply(WorkItemEvent.CANCEL_REQUESTED, reason);
      changed = true;
    } else {
      // Running: the supervision loop delivers it (CancellingByUser), also to an item ending for a
      // shutdown or its max run time; an instance that ended awaiting its restart ends Cancelled.
      cancelRequested = true;
      cancelReason = reason;
      if (journal.state() != WorkItemState.Running) {
        journal.note("cancel requested while " + journal.state() + ": " + reason);
      }
    }
    return show();
  }

  @Override
  public void validateClaimRun(RunClaim claim) {
    if (journal.current() != WorkItemState.Queued
        || claim == null
        || claim.token() != journal.runToken()) {
      refuse("work item " + spec.guid() + " is no longer queued for this attempt");
    }
  }

  @Override
  public RunGrant claimRun(RunClaim claim) {
    // A replacement or cancel accepted in the same workflow task may have run first.
    validateClaimRun(claim);
    journal.apply(WorkItemEvent.RUN_CLAIMED, null);
    runStartedAt = now();
    return new RunGrant(spec.guid(), spec.kind(), instance, spec.stateJson());
  }

  @Override
  public void shutdownRequested(ShutdownNotice notice) {
    if (notice != null && notice.token() == journal.runToken()) {
      shutdownRequested = true;
    }
  }

  @Override
  public RunAttempt attempt() {
    return new RunAttempt(instance, journal.runToken(), journal.current());
  }

  @Override
  public WorkItemView show() {
    return journal.view(restartsUsed);
  }

  private static Instant now() {
    return WorkItemJournal.now();
  }

  private static String failureMessage(Promise<RunResult> promise) {
    Exception e = promise.getFailure();
    return e == null ? "not claimed" : RunEnding.messageOf(e);
  }

  private static void refuse(String message) {
    throw ApplicationFailure.newNonRetryableFailure(message, "WorkItemRefused");
  }
}
