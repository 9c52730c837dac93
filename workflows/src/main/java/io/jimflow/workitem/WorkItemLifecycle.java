package io.jimflow.workitem;

import static io.jimflow.workitem.WorkItemState.*;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The lifecycle graph of seed 003: which transitions exist, which state follows which event, and
 * which restart state follows an ended instance.
 *
 * <p>Pure and deterministic, so the workflow and the tests share one definition of the graph.
 */
public final class WorkItemLifecycle {

  private static final Map<WorkItemState, Set<WorkItemState>> GRAPH =
      new EnumMap<>(WorkItemState.class);

  static {
    edges(WaitingForStart, WaitingForStart, Suspended, WaitingForPredecessor, Queued, Removing);
    edges(WaitingForPredecessor, WaitingForStart, Suspended, Queued, Removing);
    edges(Suspended, WaitingForStart, Suspended, Removing);
    edges(Queued, WaitingForStart, Suspended, Running, Removing);
    edges(Removing, Removed);
    edges(
        Running,
        ShutdownRequest,
        CancellingBySystem,
        CancellingByUser,
        Finished,
        Reschedule,
        Error,
        Aborted,
        Killed);
    // A user's cancel wins over a shutdown or a reached max run time: the item is asked again, now
    // to end cancelled.
    edges(
        ShutdownRequest, ShutdownConfirmed, Finished, Reschedule, Error, Aborted, CancellingByUser);
    edges(
        CancellingBySystem,
        Timeout,
        Finished,
        Reschedule,
        Error,
        Aborted,
        Killed,
        CancellingByUser);
    edges(CancellingByUser, Cancelled, Finished, Error, Aborted, Killed);
    // An instance that ended in a transient state with a cancel pending ends Cancelled instead of
    // restarting: a cancel is never lost to a restart.
    edges(ShutdownConfirmed, ShutdownRestart, Cancelled);
    edges(Aborted, AbortedRestart, Cancelled);
    edges(Timeout, TimeoutRetry, Cancelled);
    edges(Error, ErrorRetry, Cancelled);
    // A restart state ends the instance; the next instance of the same item begins waiting for its
    // start.
    for (WorkItemState restart :
        EnumSet.of(Reschedule, ShutdownRestart, AbortedRestart, TimeoutRetry, ErrorRetry)) {
      edges(restart, WaitingForStart);
    }
    for (WorkItemState s : WorkItemState.values()) {
      GRAPH.putIfAbsent(s, EnumSet.noneOf(WorkItemState.class));
    }
  }

  private static void edges(WorkItemState from, WorkItemState... to) {
    GRAPH
        .computeIfAbsent(from, k -> EnumSet.noneOf(WorkItemState.class))
        .addAll(java.util.List.of(to));
  }

  private WorkItemLifecycle() {}

  /**
   * The states directly reachable from {@code from}; a restart state leads to the next instance.
   */
  public static Set<WorkItemState> successors(WorkItemState from) {
    return Collections.unmodifiableSet(GRAPH.get(from));
  }

  public static boolean isAllowed(WorkItemState from, WorkItemState to) {
    return GRAPH.get(from).contains(to);
  }

  /** The state a freshly scheduled instance starts in. */
  public static WorkItemState initialState(boolean hasStartTime) {
    return hasStartTime ? WaitingForStart : Suspended;
  }

  /**
   * The state {@code event} leads to from {@code state}, or empty when the event does not apply
   * there (for example a second cancel while the item is already cancelling).
   */
  public static Optional<WorkItemState> next(WorkItemState state, WorkItemEvent event) {
    WorkItemState to =
        switch (event) {
          case START_TIME_REACHED -> state == WaitingForStart ? Queued : null;
          case PREDECESSOR_PENDING -> state == WaitingForStart ? WaitingForPredecessor : null;
          case PREDECESSOR_ENDED -> state == WaitingForPredecessor ? Queued : null;
          case START_TIME_CHANGED ->
              state == WaitingForStart
                      || state == Suspended
                      || state == WaitingForPredecessor
                      || state == Queued
                  ? WaitingForStart
                  : null;
          case REPLACED_WITH_START_TIME -> isReplaceable(state) ? WaitingForStart : null;
          case REPLACED_SUSPENDED -> isReplaceable(state) ? Suspended : null;
          case CANCEL_REQUESTED -> afterCancel(state);
          case RUN_CLAIMED -> state == Queued ? Running : null;
          case MAX_RUN_TIME_REACHED -> state == Running ? CancellingBySystem : null;
          case SHUTDOWN_REQUESTED -> state == Running ? ShutdownRequest : null;
          case RUN_RETURNED ->
              switch (state) {
                case Running -> Finished;
                case CancellingBySystem -> Timeout;
                case CancellingByUser -> Cancelled;
                case ShutdownRequest -> ShutdownConfirmed;
                default -> null;
              };
          case RUN_RETURNED_DONE -> state.isRunning() ? Finished : null;
          case RUN_RETURNED_WITH_SUCCESSOR ->
              switch (state) {
                case Running, CancellingBySystem, ShutdownRequest -> Reschedule;
                // The user asked the item to stop: it does not get to plan its own successor.
                case CancellingByUser -> Cancelled;
                default -> null;
              };
          case RUN_FAILED -> state.isRunning() ? Error : null;
          case RUN_LOST -> state.isRunning() ? Aborted : null;
          case GRACE_EXPIRED ->
              switch (state) {
                case Running, CancellingBySystem, CancellingByUser -> Killed;
                // Seed 003: an item that ignores a shutdown request is aborted and re-planned.
                case ShutdownRequest -> Aborted;
                default -> null;
              };
          case REMOVAL_CONFIRMED -> state == Removing ? Removed : null;
        };
    return Optional.ofNullable(to);
  }

  /**
   * Where a cancel leads: a waiting item is removed, a running one (also one already asked to end
   * for a shutdown or its max run time) is asked to end cancelled, and an instance that ended in a
   * state a restart would follow ends Cancelled instead.
   */
  private static WorkItemState afterCancel(WorkItemState state) {
    if (isReplaceable(state)) {
      return Removing;
    }
    return switch (state) {
      case Running, ShutdownRequest, CancellingBySystem -> CancellingByUser;
      case ShutdownConfirmed, Aborted, Timeout, Error -> Cancelled;
      default -> null;
    };
  }

  /**
   * True while the work manager may still replace the instance by scheduling the same guid again.
   */
  public static boolean isReplaceable(WorkItemState state) {
    return state.isManagerOwned() && state != Removing;
  }

  /**
   * The restart state that follows an ended instance, or empty when {@code ended} is final.
   *
   * @param restartsUsed how many timeout and error retries earlier instances of the item already
   *     used
   * @param maxRestarts the item's MaxNumberOfRestarts; shutdown and abort restarts do not count
   *     against it
   */
  public static Optional<WorkItemState> restartAfter(
      WorkItemState ended, int restartsUsed, int maxRestarts) {
    WorkItemState restart =
        switch (ended) {
          case ShutdownConfirmed -> ShutdownRestart;
          case Aborted -> AbortedRestart;
          case Timeout -> restartsUsed < maxRestarts ? TimeoutRetry : null;
          case Error -> restartsUsed < maxRestarts ? ErrorRetry : null;
          default -> null;
        };
    return Optional.ofNullable(restart);
  }

  /** True when a restart state uses up one of the item's MaxNumberOfRestarts. */
  public static boolean countsAgainstMaxRestarts(WorkItemState restart) {
    return restart == TimeoutRetry || restart == ErrorRetry;
  }
}
