package io.jimflow.schedules;

import io.jimflow.schedule.ScheduleDefinition;
import java.util.List;

/**
 * Brings the deployed schedules in line with a definitions file: plan first, then apply the plan.
 */
public final class ScheduleReconciler {

  private final ScheduleStore store;

  public ScheduleReconciler(ScheduleStore store) {
    this.store = store;
  }

  /** What {@link #apply} would do now; changes nothing. */
  public SchedulePlan plan(List<ScheduleDefinition> definitions) {
    List<DesiredSchedule> desired = definitions.stream().map(ScheduleMapper::desired).toList();
    return SchedulePlanner.plan(
        desired, store.deployed(desired.stream().map(DesiredSchedule::id).toList()));
  }

  /**
   * Computes the plan and carries it out, creates first and deletes last.
   *
   * @throws ScheduleConflictException when the file uses ids of schedules jimflow did not create;
   *     nothing is changed then
   */
  public SchedulePlan apply(List<ScheduleDefinition> definitions) {
    SchedulePlan plan = plan(definitions);
    if (!plan.conflicts().isEmpty()) {
      throw new ScheduleConflictException(plan.conflicts());
    }
    for (SchedulePlan.Change change : plan.changes()) {
      switch (change.kind()) {
        case CREATE -> store.create(change.desired());
        case UPDATE -> store.update(change.desired());
        case DELETE -> store.delete(change.id());
      }
    }
    return plan;
  }
}
