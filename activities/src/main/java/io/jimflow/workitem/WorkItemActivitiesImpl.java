package io.jimflow.workitem;

import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityCompletionException;
import io.temporal.client.ActivityWorkerShutdownException;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs work item handlers: claims the item, runs the handler of its kind while a watcher heartbeats
 * and follows the item's state, and calls WorkItemFinished.
 */
public final class WorkItemActivitiesImpl implements WorkItemActivities {

  private static final Logger log = LoggerFactory.getLogger(WorkItemActivitiesImpl.class);

  private final WorkItemHandlerRegistry handlers;
  private final WorkItemControl control;
  private final Duration watchInterval;

  /**
   * @param watchInterval how often a running item heartbeats and looks for WorkItemShouldFinish;
   *     keep it well below the items' heartbeat timeout
   */
  public WorkItemActivitiesImpl(
      WorkItemHandlerRegistry handlers, WorkItemControl control, Duration watchInterval) {
    this.handlers = handlers;
    this.control = control;
    this.watchInterval = watchInterval;
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
    RunningItem item = new RunningItem(activity, input, grant, control);
    ScheduledExecutorService watcher =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "work-item-watch-" + grant.guid());
              t.setDaemon(true);
              return t;
            });
    watcher.scheduleWithFixedDelay(item::watch, 0, watchInterval.toMillis(), TimeUnit.MILLISECONDS);
    try {
      WorkItemRunOutcome outcome = handler.get().run(item);
      String state = outcome.stateJson() != null ? outcome.stateJson() : item.lastSaved();
      return new RunResult(
          true, state, outcome.done(), outcome.successorStartTime(), null, item.shutdownSeen());
    } catch (ActivityCompletionException abandoned) {
      throw abandoned;
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      log.warn("work item {} ({}): handler failed", grant.guid(), grant.kind(), e);
      return new RunResult(true, item.lastSaved(), false, null, e.toString(), item.shutdownSeen());
    } finally {
      watcher.shutdownNow();
    }
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
    try {
      handler.finished(
          new WorkItemFinishedContext(
              input.guid(),
              input.kind(),
              input.instance(),
              input.finalState(),
              input.stateJson(),
              input.restartFollows()));
    } catch (Exception e) {
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "WorkItemFinished of " + input.guid() + " failed: " + e, "FinishedFailed", e);
    }
  }

  /** The run context of one attempt; the watcher thread and the handler thread share it. */
  private static final class RunningItem implements WorkItemRunContext {
    private final ActivityExecutionContext activity;
    private final RunInput input;
    private final RunGrant grant;
    private final WorkItemControl control;
    private volatile String lastSaved;
    private volatile FinishReason reason = FinishReason.NONE;
    private volatile ActivityCompletionException abandoned;
    private volatile boolean shutdownSeen;

    RunningItem(
        ActivityExecutionContext activity,
        RunInput input,
        RunGrant grant,
        WorkItemControl control) {
      this.activity = activity;
      this.input = input;
      this.grant = grant;
      this.control = control;
      this.lastSaved = grant.stateJson();
    }

    @Override
    public String guid() {
      return grant.guid();
    }

    @Override
    public String kind() {
      return grant.kind();
    }

    @Override
    public int instance() {
      return grant.instance();
    }

    @Override
    public String state() {
      return grant.stateJson();
    }

    String lastSaved() {
      return lastSaved;
    }

    boolean shutdownSeen() {
      return shutdownSeen;
    }

    @Override
    public void saveProgress(String stateJson) {
      lastSaved = stateJson;
      if (abandoned != null) {
        throw abandoned;
      }
      heartbeat();
      if (abandoned != null) {
        throw abandoned;
      }
    }

    @Override
    public boolean shouldFinish() {
      return reason != FinishReason.NONE;
    }

    @Override
    public FinishReason finishReason() {
      return reason;
    }

    /**
     * Runs on the watcher thread: heartbeat, then look whether the workflow asks the item to
     * finish.
     */
    void watch() {
      try {
        heartbeat();
        if (abandoned != null) {
          return;
        }
        FinishReason fromState =
            switch (control.state(input.guid())) {
              case Running -> FinishReason.NONE;
              case CancellingBySystem -> FinishReason.MAX_RUN_TIME;
              case CancellingByUser -> FinishReason.CANCELLED;
              case ShutdownRequest -> FinishReason.SHUTDOWN;
              default -> FinishReason.ABANDONED;
            };
        // A cancel overrides an earlier reason: the item is to end Cancelled, without a successor.
        if (fromState != FinishReason.NONE
            && (reason == FinishReason.NONE || fromState == FinishReason.CANCELLED)) {
          reason = fromState;
        }
      } catch (RuntimeException e) {
        // The workflow may be briefly unreachable; the next round tries again.
        log.debug("work item {}: watch round failed", input.guid(), e);
      }
    }

    private void heartbeat() {
      try {
        activity.heartbeat(new RunCheckpoint(lastSaved));
      } catch (ActivityWorkerShutdownException shutdown) {
        // Caught rather than propagated: the handler gets the chance to end in order
        // (ShutdownConfirmed).
        if (!shutdownSeen) {
          shutdownSeen = true;
          reason = FinishReason.SHUTDOWN;
          try {
            control.reportShutdown(input.guid(), input.token());
          } catch (RuntimeException e) {
            log.warn(
                "work item {}: could not report the shutdown; the result will", input.guid(), e);
          }
        }
      } catch (ActivityCompletionException gone) {
        abandoned = gone;
        reason = FinishReason.ABANDONED;
      }
    }
  }
}
