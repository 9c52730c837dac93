package io.jimflow.workitem.activities;

import io.jimflow.workitem.FinishedInput;
import io.jimflow.workitem.RunGrant;
import io.jimflow.workitem.RunInput;
import io.jimflow.workitem.RunResult;
import io.jimflow.workitem.WorkItemActivities;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityWorkerShutdownException;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs work item handlers: claims the item, runs the handler of its kind on a thread of its own
 * while a watcher heartbeats and follows the item's state, and calls WorkItemFinished.
 *
 * <p>A handler that is given up (Killed after its grace period, an attempt the server gave up, a
 * WorkItemFinished past its limit) is stopped in three steps: its writes through the context are
 * refused from then on ({@link WorkItemFencedException}), its thread is interrupted, and if it has
 * not ended after its {@link WorkItemTimings#stopWait() stop wait} the activity returns without it,
 * so its slot is free, and the thread is reported in {@link RunawayHandlers} (the worker is
 * unhealthy while it runs).
 */
public final class WorkItemActivitiesImpl implements WorkItemActivities {

  private static final Logger log = LoggerFactory.getLogger(WorkItemActivitiesImpl.class);

  private final WorkItemHandlerRegistry handlers;
  private final WorkItemControl control;
  private final WorkItemTimings timings;
  private final RunawayHandlers runaways;

  /**
   * @param timings how often running items are watched, how long an interrupted handler has to end
   *     before the activity returns without it and reports it in {@code runaways}, and
   *     WorkItemFinished's limit
   */
  public WorkItemActivitiesImpl(
      WorkItemHandlerRegistry handlers,
      WorkItemControl control,
      WorkItemTimings timings,
      RunawayHandlers runaways) {
    this.handlers = handlers;
    this.control = control;
    this.timings = timings;
    this.runaways = runaways;
  }

  @Override
  public RunResult run(RunInput input) {
    ActivityExecutionContext activity = Activity.getExecutionContext();
    try {
      activity.heartbeat(null);
    } catch (ActivityWorkerShutdownException shuttingDown) {
      // A worker keeps polling for a few seconds into its shutdown; it must not take new items
      // then.
      return RunResult.notClaimed();
    }
    Optional<RunGrant> claimed = control.claim(input.guid(), input.token());
    if (claimed.isEmpty()) {
      log.info("work item {}: claim refused, the item was replaced or cancelled", input.guid());
      return RunResult.notClaimed();
    }
    RunGrant grant = claimed.get();
    Optional<WorkItemHandler> handler = handlers.find(grant.kind());
    if (handler.isEmpty()) {
      return new RunResult(
          true,
          grant.stateJson(),
          false,
          null,
          "no handler for kind '"
              + grant.kind()
              + "' on this worker (it has "
              + handlers.kinds()
              + ")",
          false);
    }
    Optional<String> refusal =
        timings.refusal(
            activity.getInfo().getStartToCloseTimeout(), input.maxRestarts(), input.retryDelay());
    if (refusal.isPresent()) {
      log.warn("work item {} ({}) refused: {}", grant.guid(), grant.kind(), refusal.get());
      return RunResult.refused(grant.stateJson(), refusal.get());
    }
    RunningWorkItem item = new RunningWorkItem(activity, input, grant, control);
    ScheduledExecutorService watcher =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "work-item-watch-" + grant.guid());
              t.setDaemon(true);
              return t;
            });
    StoppableCall<WorkItemRunOutcome> call =
        StoppableCall.start(
            "work-item-" + grant.kind() + "-" + grant.guid(), () -> handler.get().run(item));
    watcher.scheduleWithFixedDelay(
        item::watch, 0, timings.watchInterval().toMillis(), TimeUnit.MILLISECONDS);
    try {
      awaitEndOrFence(call, item);
      if (!call.isDone()) {
        return stopAbandoned(call, item);
      }
      WorkItemRunOutcome outcome = call.get();
      String state = outcome.stateJson() != null ? outcome.stateJson() : item.lastSaved();
      return new RunResult(
          true, state, outcome.done(), outcome.successorStartTime(), null, item.shutdownSeen());
    } catch (InterruptedException stopping) {
      // The worker is stopped hard: the handler is stopped with it.
      item.fence("the run worker was stopped");
      call.interrupt();
      Thread.currentThread().interrupt();
      return new RunResult(
          true, item.lastSaved(), false, null, "the run worker was stopped", item.shutdownSeen());
    } catch (Exception e) {
      if (item.fencedReason() != null) {
        // The handler ended because it was given up; the workflow no longer waits for the result.
        return abandonedResult(item);
      }
      log.warn("work item {} ({}): handler failed", grant.guid(), grant.kind(), e);
      return new RunResult(true, item.lastSaved(), false, null, e.toString(), item.shutdownSeen());
    } finally {
      watcher.shutdownNow();
    }
  }

  /** Waits until the handler returns or its attempt is given up, whichever comes first. */
  private static void awaitEndOrFence(StoppableCall<?> call, RunningWorkItem item)
      throws InterruptedException {
    try {
      CompletableFuture.anyOf(call.result(), item.fenced()).get();
    } catch (ExecutionException handlerThrew) {
      // call.get() reports it
    }
  }

  /** The attempt was given up while the handler runs: interrupt it, release the slot at the end. */
  private RunResult stopAbandoned(StoppableCall<WorkItemRunOutcome> call, RunningWorkItem item)
      throws InterruptedException {
    RunGrant grant = item.grant();
    log.warn(
        "work item {} ({}) instance {}: {}; interrupting its handler",
        grant.guid(),
        grant.kind(),
        grant.instance(),
        item.fencedReason());
    call.interrupt();
    if (!call.awaitEnd(timings.stopWait())) {
      runaways.add(grant.guid(), grant.kind(), grant.instance(), "run", call.thread());
    }
    return abandonedResult(item);
  }

  private static RunResult abandonedResult(RunningWorkItem item) {
    if (item.abandoned() != null) {
      throw item.abandoned();
    }
    return new RunResult(
        true, item.lastSaved(), false, null, item.fencedReason(), item.shutdownSeen());
  }

  @Override
  public void finished(FinishedInput input) {
    WorkItemHandler handler =
        handlers
            .find(input.kind())
            .orElseThrow(
                () ->
                    ApplicationFailure.newNonRetryableFailure(
                        "no handler for kind '" + input.kind() + "' on this worker",
                        "UnknownKind"));
    Duration limit = finishedLimit();
    AtomicReference<String> overrun = new AtomicReference<>();
    WorkItemFence fence =
        () -> {
          String why = overrun.get();
          if (why != null) {
            throw new WorkItemFencedException(
                "WorkItemFinished of " + input.guid() + " " + why + ": write refused");
          }
        };
    WorkItemFinishedContext context =
        new WorkItemFinishedContext(
            input.guid(),
            input.kind(),
            input.instance(),
            input.finalState(),
            input.stateJson(),
            input.restartFollows(),
            fence);
    StoppableCall<Void> call =
        StoppableCall.start(
            "work-item-finished-" + input.kind() + "-" + input.guid(),
            () -> {
              handler.finished(context);
              return null;
            });
    boolean ended;
    try {
      ended = call.awaitEnd(limit);
      if (!ended) {
        overrun.set("overran its limit of " + limit);
        call.interrupt();
        log.error(
            "work item {} instance {}: WorkItemFinished overran its limit of {}; interrupted, its"
                + " writes refused",
            input.guid(),
            input.instance(),
            limit);
        if (!call.awaitEnd(timings.stopWait())) {
          runaways.add(input.guid(), input.kind(), input.instance(), "finished", call.thread());
        }
      }
    } catch (InterruptedException stopping) {
      overrun.set("was stopped with its worker");
      call.interrupt();
      Thread.currentThread().interrupt();
      throw ApplicationFailure.newNonRetryableFailure(
          "WorkItemFinished of " + input.guid() + " was stopped with its worker",
          "FinishedStopped");
    }
    if (!ended) {
      throw ApplicationFailure.newNonRetryableFailure(
          "WorkItemFinished of "
              + input.guid()
              + " overran its limit of "
              + limit
              + ": interrupted, its further writes refused",
          "FinishedOverran");
    }
    try {
      call.get();
    } catch (Exception e) {
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "WorkItemFinished of " + input.guid() + " failed: " + e, "FinishedFailed", e);
    }
  }

  /** The configured limit, never beyond the activity's StartToClose timeout. */
  private Duration finishedLimit() {
    Duration limit = timings.finishedLimit();
    Duration startToClose = Activity.getExecutionContext().getInfo().getStartToCloseTimeout();
    if (startToClose == null || startToClose.isZero() || startToClose.isNegative()) {
      return limit;
    }
    return startToClose.compareTo(limit) < 0 ? startToClose : limit;
  }
}
