package io.jimflow.schedule.deploy;

import java.util.List;

/**
 * The definitions file uses the id of a schedule that jimflow did not create, or that another scope
 * owns; neither is ever taken over.
 */
public class ScheduleConflictException extends RuntimeException {

  private final List<SchedulePlan.Conflict> conflicts;

  public ScheduleConflictException(List<SchedulePlan.Conflict> conflicts) {
    super(
        "schedule "
            + String.join(
                "; schedule ", conflicts.stream().map(SchedulePlan.Conflict::describe).toList())
            + ". Nothing was changed.");
    this.conflicts = List.copyOf(conflicts);
  }

  public List<SchedulePlan.Conflict> conflicts() {
    return conflicts;
  }
}
