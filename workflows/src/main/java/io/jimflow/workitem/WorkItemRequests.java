package io.jimflow.workitem;

import java.util.List;
import java.util.Optional;

/**
 * Which requests a work item accepts in which state, and the words of a refusal. The workflow's
 * update validators refuse with these messages before an update is written to its history, and
 * check again when the update runs.
 */
final class WorkItemRequests {

  private WorkItemRequests() {}

  /**
   * Why {@code requested} (with its defaults applied; null when the caller sent none) cannot
   * replace {@code spec}, or empty when it can: only an item that has not started, in its first
   * instance, is re-scheduled.
   */
  static Optional<String> refuseSchedule(
      WorkItemSpec spec, WorkItemSpec requested, WorkItemState current, int instance) {
    if (requested == null) {
      return Optional.of("schedule: a work item spec is required");
    }
    List<String> problems = requested.problems();
    if (!problems.isEmpty()) {
      return Optional.of("work item " + requested.guid() + ": " + String.join("; ", problems));
    }
    if (!requested.guid().equals(spec.guid())) {
      return Optional.of(
          "work item " + spec.guid() + ": spec names another guid " + requested.guid());
    }
    if (instance > 1 || !WorkItemLifecycle.isReplaceable(current)) {
      return Optional.of(
          "work item "
              + spec.guid()
              + " has already started (state "
              + current
              + ", instance "
              + instance
              + "): it owns itself and cannot be re-scheduled; cancel it or use another guid");
    }
    return Optional.empty();
  }

  /** Why the start time of item {@code guid} cannot change as asked, or empty when it can. */
  static Optional<String> refuseStartTimeChange(
      String guid, StartTimeChange change, WorkItemState current) {
    if (change == null || change.startTime() == null) {
      return Optional.of("work item " + guid + ": changeStartTime needs a start time");
    }
    if (WorkItemLifecycle.next(current, WorkItemEvent.START_TIME_CHANGED).isEmpty()) {
      return Optional.of(
          "work item " + guid + " is " + current + ": only a planned item's start time can change");
    }
    return Optional.empty();
  }

  /**
   * Why item {@code guid} cannot be cancelled, or empty when it can.
   *
   * @param awaitingRestart the instance has ended and its restart is still to come (a cancel then
   *     turns the restart into Cancelled)
   * @param cancelPending a cancel was already accepted
   */
  static Optional<String> refuseCancel(
      String guid, WorkItemState current, boolean awaitingRestart, boolean cancelPending) {
    if ((current.hasEnded() && !awaitingRestart)
        || current == WorkItemState.Removing
        || cancelPending) {
      String why =
          current == WorkItemState.Reschedule
              ? ": it has planned its successor; cancel again to remove that"
              : ": nothing to cancel";
      return Optional.of("work item " + guid + " is " + current + why);
    }
    return Optional.empty();
  }
}
