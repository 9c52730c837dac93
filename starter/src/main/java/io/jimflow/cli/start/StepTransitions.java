package io.jimflow.cli.start;

import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns successive snapshots of an execution's steps into one line per change, so that {@code run
 * --wait} shows each step transition once, as it happens.
 */
final class StepTransitions {

  private final Map<String, String> seen = new HashMap<>();

  /** The lines for every step whose status or attempt changed since the last call. */
  List<String> next(List<StepOutcome> steps) {
    List<String> lines = new ArrayList<>();
    for (StepOutcome step : steps) {
      boolean waitsForSomething = step.status() == StepStatus.Waiting && step.message() != null;
      String state =
          step.status() + "#" + step.attempts() + (waitsForSomething ? "#" + step.message() : "");
      String before = seen.put(step.name(), state);
      boolean unchangedOrStillWaiting =
          state.equals(before)
              || (before == null && step.status() == StepStatus.Waiting && !waitsForSomething);
      if (!unchangedOrStillWaiting) {
        lines.add(describe(step));
      }
    }
    return lines;
  }

  static String describe(StepOutcome step) {
    StringBuilder line =
        new StringBuilder("  [").append(step.index()).append("] ").append(step.name()).append(": ");
    line.append(step.status());
    if (step.status() == StepStatus.Running) {
      line.append(" (attempt ").append(Math.max(step.attempts(), 1)).append(')');
    } else if (step.status().isFinal() && step.attempts() > 1) {
      line.append(" after ").append(step.attempts()).append(" attempts");
    }
    boolean waiting = step.status() == StepStatus.Waiting;
    if ((waiting || step.status().isFinal())
        && step.message() != null
        && !step.message().isBlank()) {
      line.append(" - ").append(firstLine(step.message()));
    }
    return line.toString();
  }

  private static String firstLine(String message) {
    String trimmed = message.strip();
    int newline = trimmed.indexOf('\n');
    return newline < 0 ? trimmed : trimmed.substring(0, newline) + " …";
  }
}
