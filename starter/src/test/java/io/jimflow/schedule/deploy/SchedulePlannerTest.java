package io.jimflow.schedule.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.deploy.SchedulePlan.Change;
import io.jimflow.schedule.file.ScheduleDefinitions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchedulePlannerTest {

  private final InMemoryScheduleStore store = new InMemoryScheduleStore();
  private final ScheduleReconciler reconciler = new ScheduleReconciler(store);

  @Test
  void anEmptyServerGetsEverySchedule() {
    SchedulePlan plan = reconciler.apply(definitions(nightly("0 2 * * *"), scripts(true)));

    assertThat(plan.changes())
        .extracting(Change::describe)
        .containsExactly("create nightly", "create scripts");
    assertThat(store.schedules.keySet()).containsExactly("nightly", "scripts");
  }

  @Test
  void aSecondApplyOfTheSameFileChangesNothing() {
    reconciler.apply(definitions(nightly("0 2 * * *"), scripts(true)));
    int writes = store.writes;

    SchedulePlan again = reconciler.apply(definitions(nightly("0 2 * * *"), scripts(true)));

    assertThat(again.hasChanges()).isFalse();
    assertThat(again.unchanged()).containsExactly("nightly", "scripts");
    assertThat(store.writes).isEqualTo(writes);
  }

  @Test
  void aChangedTriggerIsAnUpdateOfTheSpecOnly() {
    reconciler.apply(definitions(nightly("0 2 * * *")));

    SchedulePlan plan = reconciler.plan(definitions(nightly("0 3 * * *")));

    assertThat(plan.changes())
        .extracting(Change::describe)
        .containsExactly("update nightly (spec)");
  }

  @Test
  void changedStepsAreAnUpdateOfTheAction() {
    reconciler.apply(definitions(scripts(true)));

    SchedulePlan plan =
        reconciler.plan(definitions(scripts(true).replace("args: [\"3\"]", "args: [\"4\"]")));

    assertThat(plan.changes())
        .extracting(Change::describe)
        .containsExactly("update scripts (action)");
  }

  @Test
  void aChangedOverlapPolicyIsAnUpdateOfThePolicies() {
    reconciler.apply(definitions(scripts(true)));

    SchedulePlan plan = reconciler.plan(definitions(scripts(true) + "    overlap: allow-all\n"));

    assertThat(plan.changes())
        .extracting(Change::describe)
        .containsExactly("update scripts (policies)");
  }

  @Test
  void disablingAScheduleIsAnUpdateOfItsPausedState() {
    reconciler.apply(definitions(scripts(true)));

    SchedulePlan plan = reconciler.plan(definitions(scripts(false)));

    assertThat(plan.changes())
        .extracting(Change::describe)
        .containsExactly("update scripts (paused: false -> true)");
  }

  @Test
  void aScheduleLeftOutOfTheFileIsDeleted() {
    reconciler.apply(definitions(nightly("0 2 * * *"), scripts(true)));

    SchedulePlan plan = reconciler.apply(definitions(scripts(true)));

    assertThat(plan.changes()).extracting(Change::describe).containsExactly("delete nightly");
    assertThat(store.schedules.keySet()).containsExactly("scripts");
  }

  @Test
  void planChangesNothing() {
    SchedulePlan plan = reconciler.plan(definitions(nightly("0 2 * * *")));

    assertThat(plan.changes()).extracting(Change::describe).containsExactly("create nightly");
    assertThat(store.schedules).isEmpty();
  }

  @Test
  void schedulesJimflowDidNotCreateAreNeverDeleted() {
    store.schedules.put("someone-elses", new DeployedSchedule("someone-elses", false, null, false));

    SchedulePlan plan = reconciler.apply(definitions(scripts(true)));

    assertThat(plan.changes()).extracting(Change::describe).containsExactly("create scripts");
    assertThat(store.schedules).containsKey("someone-elses");
  }

  @Test
  void anIdClashWithAScheduleJimflowDidNotCreateIsRefusedAndNothingChanges() {
    store.schedules.put("nightly", new DeployedSchedule("nightly", false, null, false));

    assertThatThrownBy(() -> reconciler.apply(definitions(nightly("0 2 * * *"), scripts(true))))
        .isInstanceOf(ScheduleConflictException.class)
        .hasMessageContaining("nightly");
    assertThat(store.schedules.keySet()).containsExactly("nightly");
    assertThat(store.writes).isZero();
  }

  @Test
  void aManagedScheduleWithoutFingerprintIsRewrittenCompletely() {
    store.schedules.put("nightly", new DeployedSchedule("nightly", true, null, false));

    SchedulePlan plan = reconciler.plan(definitions(nightly("0 2 * * *")));

    assertThat(plan.changes())
        .extracting(Change::describe)
        .containsExactly("update nightly (spec, action, policies, adopted into scope default)");
  }

  @Test
  void eachScopeDeletesOnlyItsOwnSchedules() {
    reconciler.apply("a", definitions(nightly("0 2 * * *"), scripts(true)));
    reconciler.apply("b", definitions(other()));

    SchedulePlan plan = reconciler.apply("a", definitions(nightly("0 2 * * *")));

    assertThat(plan.scope()).isEqualTo("a");
    assertThat(plan.changes()).extracting(Change::describe).containsExactly("delete scripts");
    assertThat(store.schedules.keySet()).containsExactlyInAnyOrder("nightly", "other");
  }

  @Test
  void anIdOwnedByAnotherScopeIsAConflictNamingThatScopeAndNothingChanges() {
    reconciler.apply("b", definitions(other()));
    int writes = store.writes;

    assertThatThrownBy(() -> reconciler.apply("c", definitions(scripts(true), other())))
        .isInstanceOf(ScheduleConflictException.class)
        .hasMessageContaining("other belongs to scope 'b'")
        .hasMessageContaining("remove it from the file of scope 'b'")
        .hasMessageContaining("Nothing was changed");
    assertThat(store.schedules.keySet()).containsExactly("other");
    assertThat(store.writes).isEqualTo(writes);
  }

  @Test
  void aScheduleWithoutAScopeIsAdoptedWhenNamedAndNeverDeletedOtherwise() {
    reconciler.apply(definitions(nightly("0 2 * * *"), scripts(true)));
    store.schedules.replaceAll(
        (id, d) -> new DeployedSchedule(id, true, d.fingerprint(), d.paused(), null));

    SchedulePlan other = reconciler.apply("b", definitions(other()));
    SchedulePlan adopting = reconciler.apply("a", definitions(nightly("0 2 * * *")));

    assertThat(other.changes()).extracting(Change::describe).containsExactly("create other");
    assertThat(adopting.changes())
        .extracting(Change::describe)
        .containsExactly("update nightly (adopted into scope a)");
    assertThat(store.schedules.get("nightly").scope()).isEqualTo("a");
    assertThat(store.schedules).containsKey("scripts");
  }

  @Test
  void changesAreOrderedCreatesThenUpdatesThenDeletes() {
    reconciler.apply(definitions(nightly("0 2 * * *"), scripts(true)));
    List<DesiredSchedule> desired =
        List.of(
            ScheduleMapper.desired(definitions(scripts(false)).get(0), "default"),
            ScheduleMapper.desired(definitions(other()).get(0), "default"));

    SchedulePlan plan =
        SchedulePlanner.plan(ScheduleReconciler.DEFAULT_SCOPE, desired, store.deployed(List.of()));

    assertThat(plan.changes())
        .extracting(Change::kind)
        .containsExactly(
            SchedulePlan.Kind.CREATE, SchedulePlan.Kind.UPDATE, SchedulePlan.Kind.DELETE);
  }

  private static String nightly(String cron) {
    return """
      - id: nightly
        trigger: {cron: "%s", timezone: Europe/London}
        steps:
          - {index: 0, name: Import, runProfile: {connectedSystem: HR, runProfile: Full Import}}
    """
        .formatted(cron);
  }

  private static String scripts(boolean enabled) {
    return """
      - id: scripts
        enabled: %s
        trigger: {every: {minutes: 5}}
        steps:
          - {index: 0, name: Count, executable: {path: count.sh, args: ["3"]}}
    """
        .formatted(enabled);
  }

  private static String other() {
    return """
      - id: other
        steps:
          - {index: 0, name: Count, executable: {path: count.sh}}
    """;
  }

  private static List<ScheduleDefinition> definitions(String... schedules) {
    return ScheduleDefinitions.parse("schedules:\n" + String.join("", schedules), "test.yaml");
  }

  /** Keeps deployed schedules as the planner sees them. */
  static final class InMemoryScheduleStore implements ScheduleStore {
    final Map<String, DeployedSchedule> schedules = new LinkedHashMap<>();
    int writes;

    @Override
    public List<DeployedSchedule> deployed(java.util.Collection<String> ids) {
      return new ArrayList<>(schedules.values());
    }

    @Override
    public void create(DesiredSchedule schedule) {
      writes++;
      schedules.put(schedule.id(), deployedFrom(schedule));
    }

    @Override
    public void update(DesiredSchedule schedule) {
      writes++;
      schedules.put(schedule.id(), deployedFrom(schedule));
    }

    @Override
    public void delete(String id) {
      writes++;
      schedules.remove(id);
    }

    private static DeployedSchedule deployedFrom(DesiredSchedule schedule) {
      return new DeployedSchedule(
          schedule.id(),
          true,
          schedule.fingerprint(),
          schedule.schedule().getState().isPaused(),
          schedule.scope());
    }
  }
}
