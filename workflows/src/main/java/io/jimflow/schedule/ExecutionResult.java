package io.jimflow.schedule;

import java.time.Instant;
import java.util.List;

/**
 * The end of a schedule execution: its status, every step's outcome, and the message that names the
 * failed step(s) when it ended Failed.
 */
public record ExecutionResult(
    String scheduleId,
    String scheduleName,
    ExecutionStatus status,
    String message,
    Instant startedAt,
    Instant endedAt,
    List<StepOutcome> steps) {

  public ExecutionResult {
    steps = steps == null ? List.of() : List.copyOf(steps);
  }
}
