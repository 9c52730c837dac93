package io.jimflow.workitem;

import io.jimflow.common.JimflowSearchAttributes;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where one instance of a work item stands in its lifecycle, and the log of how it got there: every
 * move is checked against {@link WorkItemLifecycle}, logged, and published as search attributes and
 * current details. Workflow code, used by {@link WorkItemWorkflowImpl} only.
 */
final class WorkItemJournal {

  /**
   * The most log entries a restart carries on: a recurring item restarts without end, and the log
   * travels in every continue-as-new input, which Temporal limits in size.
   */
  static final int MAX_CARRIED_LOG = 1000;

  private final int instance;
  private final Supplier<WorkItemSpec> spec;
  private final List<WorkItemTransition> transitions;
  private WorkItemState state;

  /**
   * Identifies the current run attempt; bumped whenever the queued attempt is withdrawn and when a
   * running attempt is abandoned (Killed), which fences that attempt's further writes.
   */
  private long runToken;

  /**
   * @param spec the item's spec as it stands (a replacement may change it)
   * @param log the log the earlier instances carried on
   */
  WorkItemJournal(int instance, Supplier<WorkItemSpec> spec, List<WorkItemTransition> log) {
    this.instance = instance;
    this.spec = spec;
    this.transitions = new ArrayList<>(log);
  }

  /** The state, or null before {@link #begin()}. */
  WorkItemState state() {
    return state;
  }

  /** The state, or before {@link #begin()} the state the instance is about to begin in. */
  WorkItemState current() {
    return state != null ? state : WorkItemLifecycle.initialState(spec.get().startTime() != null);
  }

  long runToken() {
    return runToken;
  }

  /** Fences the current run attempt: its claims and writes are refused from now on. */
  void newRunToken() {
    runToken++;
  }

  /** The whole log, every instance's entries. */
  List<WorkItemTransition> transitions() {
    return transitions;
  }

  /**
   * Enters the instance's first state; handlers may run before the workflow method, so both call
   * it.
   */
  void begin() {
    if (state != null) {
      return;
    }
    WorkItemState previous =
        transitions.isEmpty() ? null : transitions.get(transitions.size() - 1).to();
    WorkItemState first = current();
    if (previous != null && !WorkItemLifecycle.isAllowed(previous, first)) {
      throw new IllegalStateException("instance cannot begin " + first + " after " + previous);
    }
    state = first;
    transitions.add(new WorkItemTransition(instance, previous, first, now(), null));
    publish();
  }

  /** Moves as {@code event} leads from the current state; false when it leads nowhere. */
  boolean apply(WorkItemEvent event, String note) {
    return WorkItemLifecycle.next(state, event).map(to -> record(to, note)).orElse(false);
  }

  /** Moves to {@code to}, which the lifecycle must allow from the current state. */
  boolean record(WorkItemState to, String note) {
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

  /** Logs {@code text} without a move. */
  void note(String text) {
    transitions.add(new WorkItemTransition(instance, state, state, now(), text));
  }

  /** The log a restart carries on, at most {@link #MAX_CARRIED_LOG} entries. */
  List<WorkItemTransition> carried() {
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

  private void publish() {
    WorkItemSpec s = spec.get();
    Workflow.upsertTypedSearchAttributes(
        JimflowSearchAttributes.WORK_ITEM_STATE.valueSet(state.name()),
        JimflowSearchAttributes.WORK_ITEM_KIND.valueSet(s.kind()));
    Workflow.setCurrentDetails(
        "work item " + s.kind() + " " + s.guid() + ": " + state + " (instance " + instance + ")");
  }

  /** The item as {@code show} reports it: this instance's state and every transition so far. */
  WorkItemView view(int restartsUsed) {
    WorkItemSpec spec = this.spec.get();
    WorkItemState current = current();
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
        transitions());
  }

  static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
