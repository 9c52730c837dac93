package io.jimflow.schedule;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every step's state within one execution, in plan order. A step's outcome is recorded once: after
 * it reached a final status, later reports about it change nothing.
 */
public final class StepBoard {

  /** Above this many steps the step rail shows counts per group instead of one line per step. */
  static final int RAIL_STEP_LINES = 40;

  private final StepGroups plan;
  private final Map<Integer, StepOutcome> steps = new LinkedHashMap<>();

  public StepBoard(StepGroups plan) {
    this.plan = plan;
    for (StepGroups.PlannedStep planned : plan.steps()) {
      StepDefinition d = planned.definition();
      steps.put(
          planned.position(),
          new StepOutcome(d.index(), d.name(), StepStatus.Waiting, 0, null, null, null, null));
    }
  }

  /** Marks a waiting step Running in its first attempt. */
  public void started(int position, Instant at) {
    StepOutcome s = steps.get(position);
    if (s.status() == StepStatus.Waiting) {
      steps.put(position, with(s, StepStatus.Running, 1, at, null, null, null));
    }
  }

  /** Says what a step that has not started yet waits for; returns false if nothing changed. */
  public boolean waitingFor(int position, String reason) {
    StepOutcome s = steps.get(position);
    if (s == null || s.status() != StepStatus.Waiting) {
      return false;
    }
    steps.put(position, with(s, StepStatus.Waiting, 0, null, null, reason, null));
    return true;
  }

  /** Records that a later attempt of a running step started; returns false if nothing changed. */
  public boolean attemptStarted(int position, int attempt) {
    StepOutcome s = steps.get(position);
    if (s == null || s.status() != StepStatus.Running || attempt <= s.attempts()) {
      return false;
    }
    steps.put(position, with(s, StepStatus.Running, attempt, s.startedAt(), null, null, null));
    return true;
  }

  /**
   * Marks a running step AwaitingApproval with what holds it, or Running again once decided ({@code
   * held} null); returns false if nothing changed.
   */
  public boolean awaitingApproval(int position, String held) {
    StepOutcome s = steps.get(position);
    if (s == null || s.status().isFinal() || s.status() == StepStatus.Waiting) {
      return false;
    }
    StepStatus status = held == null ? StepStatus.Running : StepStatus.AwaitingApproval;
    steps.put(position, with(s, status, s.attempts(), s.startedAt(), null, held, null));
    return true;
  }

  /** Records a step's outcome; returns false (and changes nothing) if it had one already. */
  public boolean finished(
      int position,
      StepStatus status,
      int attempts,
      Instant at,
      String message,
      Map<String, Long> stats) {
    StepOutcome s = steps.get(position);
    if (s.status().isFinal()) {
      return false;
    }
    steps.put(
        position,
        with(s, status, Math.max(attempts, s.attempts()), s.startedAt(), at, message, stats));
    return true;
  }

  /** Marks every step that never started Skipped; returns how many. */
  public int skipWaiting() {
    int skipped = 0;
    for (Map.Entry<Integer, StepOutcome> e : steps.entrySet()) {
      StepOutcome s = e.getValue();
      if (s.status() == StepStatus.Waiting) {
        e.setValue(with(s, StepStatus.Skipped, 0, null, null, null, null));
        skipped++;
      }
    }
    return skipped;
  }

  public StepOutcome get(int position) {
    return steps.get(position);
  }

  /** A read-only view of every step's state by position (not a copy: it follows later changes). */
  public Map<Integer, StepOutcome> byPosition() {
    return Collections.unmodifiableMap(steps);
  }

  /** Every step's state in plan order. */
  public List<StepOutcome> all() {
    return List.copyOf(steps.values());
  }

  public long count(StepStatus status) {
    return steps.values().stream().filter(s -> s.status() == status).count();
  }

  /**
   * The step rail as markdown for the Temporal UI's current details: the group under way and each
   * step's state (per-group counts for very large schedules).
   *
   * @param currentGroup 1-based, 0 before the first group
   */
  public String rail(
      String scheduleName, ExecutionStatus status, int currentGroup, String message) {
    StringBuilder md = new StringBuilder();
    md.append("**").append(scheduleName).append("** · ").append(status).append("\n\n");
    if (currentGroup > 0) {
      md.append("Step group ")
          .append(currentGroup)
          .append(" of ")
          .append(plan.count())
          .append("\n\n");
    }
    if (message != null && !message.isBlank()) {
      md.append(message).append("\n\n");
    }
    if (steps.size() <= RAIL_STEP_LINES) {
      for (StepOutcome s : steps.values()) {
        md.append("- ").append(symbol(s.status())).append(' ').append(s.index()).append(" · ");
        md.append(s.name()).append(" — ").append(s.status());
        if (s.status() == StepStatus.Running) {
          md.append(" (attempt ").append(s.attempts()).append(')');
        } else if ((s.status() == StepStatus.Waiting || s.status() == StepStatus.AwaitingApproval)
            && s.message() != null) {
          // A held step's samples, on the lines after its message's first, as a nested list.
          int newline = s.message().indexOf('\n');
          md.append(" (")
              .append(newline < 0 ? s.message() : s.message().substring(0, newline))
              .append(')')
              .append(newline < 0 ? "" : s.message().substring(newline));
        } else if (s.status().isFinal() && s.attempts() > 1) {
          md.append(" after ").append(s.attempts()).append(" attempts");
        }
        md.append('\n');
      }
      return md.toString();
    }
    for (StepGroups.StepGroup group : plan.groups()) {
      Map<StepStatus, Integer> counts = new EnumMap<>(StepStatus.class);
      group.steps().forEach(p -> counts.merge(steps.get(p.position()).status(), 1, Integer::sum));
      md.append("- group ").append(group.index()).append(": ").append(group.steps().size());
      md.append(" steps —");
      counts.forEach((st, n) -> md.append(' ').append(n).append(' ').append(st).append(','));
      md.setLength(md.length() - 1);
      md.append('\n');
    }
    return md.toString();
  }

  /** The outcome of the step at {@code position}, if the plan has one. */
  public Optional<StepOutcome> find(int position) {
    return Optional.ofNullable(steps.get(position));
  }

  private static String symbol(StepStatus status) {
    return switch (status) {
      case Waiting -> "○";
      case Running -> "▶";
      case AwaitingApproval -> "⏸";
      case Complete -> "✔";
      case CompleteWithWarning, CompleteWithError -> "⚠";
      case FailedWithError -> "✖";
      case Cancelled -> "⊘";
      case Skipped -> "–";
    };
  }

  private static StepOutcome with(
      StepOutcome s,
      StepStatus status,
      int attempts,
      Instant startedAt,
      Instant endedAt,
      String message,
      Map<String, Long> stats) {
    return new StepOutcome(
        s.index(), s.name(), status, attempts, startedAt, endedAt, message, stats);
  }
}
