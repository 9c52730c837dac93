package io.jimflow.schedule.deploy;

import io.jimflow.schedule.deploy.SchedulePlan.Change;
import io.jimflow.schedule.deploy.SchedulePlan.Kind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Compares the schedules a definitions file wants with those deployed and decides what to create,
 * update and delete. Pure: no server involved, so every case is unit-tested.
 */
public final class SchedulePlanner {

  private SchedulePlanner() {}

  /**
   * The plan of one scope: desired schedules missing on the server are created; deployed ones of
   * the scope whose fingerprint or paused state differ are updated; those of the scope that left
   * the file are deleted. A schedule without a recorded scope is adopted when the file names it and
   * otherwise left alone. Schedules jimflow did not create, and those of other scopes, are never
   * touched: an id clash is a conflict. Built-in schedules belong to no scope and are never
   * deleted.
   */
  public static SchedulePlan plan(
      String scope, List<DesiredSchedule> desired, List<DeployedSchedule> deployed) {
    Map<String, DeployedSchedule> byId =
        deployed.stream()
            .collect(Collectors.toMap(DeployedSchedule::id, Function.identity(), (a, b) -> a));
    List<Change> changes = new ArrayList<>();
    List<SchedulePlan.Conflict> conflicts = new ArrayList<>();
    List<String> unchanged = new ArrayList<>();
    for (DesiredSchedule want : desired) {
      DeployedSchedule have = byId.get(want.id());
      if (have == null) {
        changes.add(new Change(Kind.CREATE, want.id(), List.of(), want));
      } else if (!have.managed()) {
        conflicts.add(new SchedulePlan.Conflict(want.id(), null));
      } else if (!BuiltInSchedules.isBuiltIn(want.id())
          && have.scope() != null
          && !have.scope().equals(scope)) {
        conflicts.add(new SchedulePlan.Conflict(want.id(), have.scope()));
      } else {
        List<String> aspects =
            new ArrayList<>(want.fingerprint().differencesFrom(have.fingerprint()));
        if (!BuiltInSchedules.isBuiltIn(want.id()) && have.scope() == null) {
          aspects.add("adopted into scope " + scope);
        }
        if (want.paused() != have.paused()) {
          aspects.add("paused: " + have.paused() + " -> " + want.paused());
        }
        if (aspects.isEmpty()) {
          unchanged.add(want.id());
        } else {
          changes.add(new Change(Kind.UPDATE, want.id(), aspects, want));
        }
      }
    }
    List<String> wanted = desired.stream().map(DesiredSchedule::id).toList();
    for (DeployedSchedule have : deployed) {
      // Built-in schedules are never deleted, even by a reconciler that does not deploy them.
      if (have.managed()
          && scope.equals(have.scope())
          && !wanted.contains(have.id())
          && !BuiltInSchedules.isBuiltIn(have.id())) {
        changes.add(new Change(Kind.DELETE, have.id(), List.of(), null));
      }
    }
    changes.sort(Comparator.comparing(Change::kind).thenComparing(Change::id));
    return new SchedulePlan(scope, changes, conflicts, unchanged);
  }
}
