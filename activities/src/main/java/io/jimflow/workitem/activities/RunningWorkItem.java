package io.jimflow.workitem.activities;

import io.jimflow.workitem.RunAttempt;
import io.jimflow.workitem.RunCheckpoint;
import io.jimflow.workitem.RunGrant;
import io.jimflow.workitem.RunInput;
import io.jimflow.workitem.WorkItemState;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityCompletionException;
import io.temporal.client.ActivityWorkerShutdownException;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run context of one attempt of a work item's handler; the watcher thread (heartbeats, the
 * item's state) and the handler thread share it.
 */
final class RunningWorkItem implements WorkItemRunContext {

  private static final Logger log = LoggerFactory.getLogger(RunningWorkItem.class);

  private final ActivityExecutionContext activity;
  private final RunInput input;
  private final RunGrant grant;
  private final WorkItemControl control;
  private volatile String lastSaved;
  private volatile FinishReason reason = FinishReason.NONE;
  private volatile ActivityCompletionException abandoned;
  private volatile boolean shutdownSeen;

  /** Completed with the reason once the attempt no longer counts: the fence is closed. */
  private final CompletableFuture<String> fenced = new CompletableFuture<>();

  RunningWorkItem(
      ActivityExecutionContext activity, RunInput input, RunGrant grant, WorkItemControl control) {
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

  RunGrant grant() {
    return grant;
  }

  /** Completed with the reason once the attempt no longer counts. */
  CompletableFuture<String> fenced() {
    return fenced;
  }

  /** How the server ended the attempt, when a heartbeat learned it. */
  ActivityCompletionException abandoned() {
    return abandoned;
  }

  String lastSaved() {
    return lastSaved;
  }

  boolean shutdownSeen() {
    return shutdownSeen;
  }

  String fencedReason() {
    return fenced.getNow(null);
  }

  /** Closes the fence: every later write and progress save of the attempt is refused. */
  void fence(String why) {
    reason = FinishReason.ABANDONED;
    fenced.complete(why);
  }

  private void refuseIfFenced(String call) {
    String why = fencedReason();
    if (why != null) {
      throw new WorkItemFencedException(
          "work item "
              + grant.guid()
              + " instance "
              + grant.instance()
              + " (attempt "
              + input.token()
              + "): "
              + why
              + "; "
              + call
              + " refused",
          abandoned);
    }
  }

  @Override
  public void saveProgress(String stateJson) {
    refuseIfFenced("saveProgress");
    lastSaved = stateJson;
    heartbeat();
    refuseIfFenced("saveProgress");
  }

  @Override
  public void checkCurrent() {
    refuseIfFenced("write");
    RunAttempt now;
    try {
      now = control.attempt(grant.guid());
    } catch (RuntimeException e) {
      // A kill fences the attempt before it interrupts the handler, and the interrupt cancels
      // the query in flight: then the fence is the reason.
      refuseIfFenced("write");
      throw new WorkItemFencedException(
          "work item "
              + grant.guid()
              + ": could not confirm that attempt "
              + input.token()
              + " still counts ("
              + e.getMessage()
              + "); write refused",
          e);
    }
    if (!now.counts(grant.instance(), input.token())) {
      fence(
          "the attempt no longer counts (the item is "
              + now.state()
              + " in instance "
              + now.instance()
              + ")");
      refuseIfFenced("write");
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
   * Runs on the watcher thread: heartbeat, then look whether the workflow asks the item to finish,
   * or has given the attempt up.
   */
  void watch() {
    try {
      heartbeat();
      if (fencedReason() != null) {
        return;
      }
      WorkItemState state = control.state(input.guid());
      FinishReason fromState =
          switch (state) {
            case Running -> FinishReason.NONE;
            case CancellingBySystem -> FinishReason.MAX_RUN_TIME;
            case CancellingByUser -> FinishReason.CANCELLED;
            case ShutdownRequest -> FinishReason.SHUTDOWN;
            default -> FinishReason.ABANDONED;
          };
      if (fromState == FinishReason.ABANDONED) {
        fence("the item is " + state + ", the attempt was given up");
        return;
      }
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
          log.warn("work item {}: could not report the shutdown; the result will", input.guid(), e);
        }
      }
    } catch (ActivityCompletionException gone) {
      abandoned = gone;
      fence("the server gave the attempt up (" + gone.getClass().getSimpleName() + ")");
    }
  }
}
