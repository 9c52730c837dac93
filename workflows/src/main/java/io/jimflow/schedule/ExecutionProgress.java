package io.jimflow.schedule;

import java.util.List;

/**
 * A running execution's state, as the {@code progress} query returns it.
 *
 * @param currentGroup 1-based position of the group under way ("group 2 of 4"); 0 before the first
 * @param groupCount how many step groups the schedule has
 */
public record ExecutionProgress(
    String scheduleId,
    String scheduleName,
    ExecutionStatus status,
    int currentGroup,
    int groupCount,
    String message,
    List<StepOutcome> steps) {

  public ExecutionProgress {
    steps = steps == null ? List.of() : List.copyOf(steps);
  }
}
