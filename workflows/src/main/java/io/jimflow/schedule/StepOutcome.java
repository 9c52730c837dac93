package io.jimflow.schedule;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One step's state within an execution.
 *
 * @param attempts how many attempts have started (0 for a step that never started)
 * @param message why it failed, or what it reported (e.g. a program's output tail)
 * @param stats counters the step reported (objects processed, totals of its run record, ...)
 */
public record StepOutcome(
    int index,
    String name,
    StepStatus status,
    int attempts,
    Instant startedAt,
    Instant endedAt,
    String message,
    Map<String, Long> stats) {

  public StepOutcome {
    // in the order given (Map.copyOf's order changes from one JVM to the next)
    stats = stats == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(stats));
  }
}
