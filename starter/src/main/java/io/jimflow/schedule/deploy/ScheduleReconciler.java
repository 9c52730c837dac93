package io.jimflow.schedule.deploy;

import io.jimflow.schedule.ScheduleDefinition;
import java.util.List;

/**
 * Brings the deployed schedules in line with a definitions file: plan first, then apply the plan.
 */
public final class ScheduleReconciler {

  /** The scope of definitions given without one (programs and tests). */
  public static final String DEFAULT_SCOPE = "default";

  /** Listings usually catch up within a second; an apply never waits longer than this for it. */
  private static final java.time.Duration LISTING_WAIT = java.time.Duration.ofSeconds(10);

  private final ScheduleStore store;
  private final boolean builtIns;

  /** A reconciler of the file's own schedules only; built-in schedules are left as they are. */
  public ScheduleReconciler(ScheduleStore store) {
    this(store, false);
  }

  private ScheduleReconciler(ScheduleStore store, boolean builtIns) {
    this.store = store;
    this.builtIns = builtIns;
  }

  /**
   * A reconciler that also deploys the {@link BuiltInSchedules}, with the trigger and enabled state
   * of their entries in the file, or their defaults when the file omits them.
   */
  public static ScheduleReconciler withBuiltIns(ScheduleStore store) {
    return new ScheduleReconciler(store, true);
  }

  /** What {@link #apply} would do now in the default scope; changes nothing. */
  public SchedulePlan plan(List<ScheduleDefinition> definitions) {
    return plan(DEFAULT_SCOPE, definitions);
  }

  /** What {@link #apply(String, List)} would do now; changes nothing. */
  public SchedulePlan plan(String scope, List<ScheduleDefinition> definitions) {
    List<DesiredSchedule> desired =
        new java.util.ArrayList<>(
            BuiltInSchedules.userDefined(definitions).stream()
                .map(definition -> ScheduleMapper.desired(definition, scope))
                .toList());
    if (builtIns) {
      desired.addAll(BuiltInSchedules.desired(definitions));
    }
    return SchedulePlanner.plan(
        scope, desired, store.deployed(desired.stream().map(DesiredSchedule::id).toList()));
  }

  /**
   * Creates the built-in schedules that are missing, with their defaults; leaves every other
   * schedule, and built-ins a user re-timed or paused, as they are. For {@code ./jimflow dev}
   * start.
   *
   * @return the ids created
   */
  public List<String> ensureBuiltIns() {
    List<String> deployed =
        store.deployed(BuiltInSchedules.IDS).stream().map(DeployedSchedule::id).toList();
    List<String> created = new java.util.ArrayList<>();
    for (DesiredSchedule builtIn : BuiltInSchedules.desired(List.of())) {
      if (!deployed.contains(builtIn.id())) {
        store.create(builtIn);
        created.add(builtIn.id());
      }
    }
    return created;
  }

  /**
   * Computes the plan and carries it out, creates first and deletes last.
   *
   * @throws ScheduleConflictException when the file uses ids of schedules jimflow did not create;
   *     nothing is changed then
   */
  public SchedulePlan apply(List<ScheduleDefinition> definitions) {
    return apply(DEFAULT_SCOPE, definitions);
  }

  /**
   * Computes the plan of {@code scope} and carries it out, creates first and deletes last; touches
   * no schedule of another scope.
   *
   * @throws ScheduleConflictException when the file uses ids of schedules jimflow did not create or
   *     another scope owns; nothing is changed then
   */
  public SchedulePlan apply(String scope, List<ScheduleDefinition> definitions) {
    SchedulePlan plan = plan(scope, definitions);
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
    store.awaitListing(
        plan.changes().stream()
            .filter(c -> c.kind() != SchedulePlan.Kind.DELETE)
            .map(SchedulePlan.Change::id)
            .toList(),
        plan.changes().stream()
            .filter(c -> c.kind() == SchedulePlan.Kind.DELETE)
            .map(SchedulePlan.Change::id)
            .toList(),
        LISTING_WAIT);
    return plan;
  }
}
