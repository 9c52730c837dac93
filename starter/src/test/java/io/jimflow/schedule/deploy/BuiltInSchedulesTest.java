package io.jimflow.schedule.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.common.TaskQueues;
import io.jimflow.config.tree.ConfigException;
import io.jimflow.config.tree.ConfigProblem;
import io.jimflow.maintenance.HistoryRetentionWorkflow;
import io.jimflow.maintenance.HousekeepingInput;
import io.jimflow.maintenance.HousekeepingWorkflow;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.deploy.SchedulePlan.Change;
import io.jimflow.schedule.deploy.SchedulePlannerTest.InMemoryScheduleStore;
import io.jimflow.schedule.file.ScheduleDefinitions;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuiltInSchedulesTest {

  private static final String NIGHTLY =
      """
        - id: nightly
          trigger: {cron: "0 2 * * *"}
          steps:
            - {index: 0, name: Import, runProfile: {connectedSystem: HR, runProfile: Full Import}}
      """;

  private final InMemoryScheduleStore store = new InMemoryScheduleStore();
  private final ScheduleReconciler reconciler = ScheduleReconciler.withBuiltIns(store);

  @Test
  void anApplyOfAFileWithoutThemCreatesTheBuiltInSchedules() {
    SchedulePlan plan = reconciler.apply(definitions(NIGHTLY));

    assertThat(plan.changes())
        .extracting(Change::describe)
        .containsExactly(
            "create jimflow-history-retention", "create jimflow-housekeeping", "create nightly");
  }

  @Test
  void builtInSchedulesSurviveALaterApplyOfAFileThatOmitsThem() {
    reconciler.apply(definitions(NIGHTLY));

    SchedulePlan plan = reconciler.apply(definitions());

    assertThat(plan.changes()).extracting(Change::describe).containsExactly("delete nightly");
    assertThat(store.schedules.keySet())
        .containsExactlyInAnyOrder("jimflow-housekeeping", "jimflow-history-retention");
  }

  @Test
  void aReconcilerOfTheFilesOwnSchedulesNeverDeletesABuiltIn() {
    reconciler.apply(definitions());

    SchedulePlan plan = new ScheduleReconciler(store).apply(definitions(NIGHTLY));

    assertThat(plan.changes()).extracting(Change::describe).containsExactly("create nightly");
    assertThat(store.schedules).containsKeys("jimflow-housekeeping", "jimflow-history-retention");
  }

  @Test
  void anEntryOfAReservedIdReTimesOrPausesTheBuiltInAndDroppingItRestoresTheDefaults() {
    reconciler.apply(definitions());

    SchedulePlan retimed =
        reconciler.apply(
            definitions(
                """
          - id: jimflow-housekeeping
            trigger: {every: {minutes: 5}}
          - id: jimflow-history-retention
            enabled: false
        """));
    assertThat(retimed.changes())
        .extracting(Change::describe)
        .containsExactly(
            "update jimflow-history-retention (paused: false -> true)",
            "update jimflow-housekeeping (spec)");
    assertThat(store.schedules.get("jimflow-history-retention").paused()).isTrue();

    SchedulePlan restored = reconciler.apply(definitions());
    assertThat(restored.changes())
        .extracting(Change::describe)
        .containsExactly(
            "update jimflow-history-retention (paused: true -> false)",
            "update jimflow-housekeeping (spec)");
  }

  @Test
  void aBuiltInEntryMayNotChangeWhatTheScheduleDoes() {
    assertThatThrownBy(
            () ->
                definitions(
                    """
              - id: jimflow-housekeeping
                name: Mine now
                steps:
                  - {index: 0, name: Count, executable: {path: count.sh}}
            """))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e ->
                assertThat(e.problems())
                    .extracting(ConfigProblem::format)
                    .containsExactly(
                        "test.yaml:3: schedules[0].name: 'name' cannot be set on the built-in schedule"
                            + " 'jimflow-housekeeping': only 'trigger' and 'enabled' may be changed (its work is fixed)",
                        "test.yaml:4: schedules[0].steps: 'steps' cannot be set on the built-in schedule"
                            + " 'jimflow-housekeeping': only 'trigger' and 'enabled' may be changed (its work is fixed)"));
  }

  @Test
  void builtInsStartTheMaintenanceWorkflowsOnTheMaintenanceQueueAsTheSchedule() {
    List<DesiredSchedule> builtIns = BuiltInSchedules.desired(List.of());

    ScheduleActionStartWorkflow housekeeping =
        (ScheduleActionStartWorkflow) builtIns.get(0).schedule().getAction();
    ScheduleActionStartWorkflow retention =
        (ScheduleActionStartWorkflow) builtIns.get(1).schedule().getAction();

    assertThat(housekeeping.getWorkflowType()).isEqualTo(HousekeepingWorkflow.TYPE);
    assertThat(housekeeping.getOptions().getTaskQueue()).isEqualTo(TaskQueues.MAINTENANCE);
    HousekeepingInput input = housekeeping.getArguments().get(0, HousekeepingInput.class);
    assertThat(input.initiator().type()).isEqualTo(InitiatorType.Schedule);
    assertThat(input.initiator().id()).isEqualTo("jimflow-housekeeping");
    assertThat(retention.getWorkflowType()).isEqualTo(HistoryRetentionWorkflow.TYPE);
    assertThat(builtIns.get(0).definition().trigger().every().minutes()).isEqualTo(1);
    assertThat(builtIns.get(1).definition().trigger().cron()).containsExactly("30 2 * * *");
  }

  @Test
  void ensuringBuiltInsCreatesOnlyMissingOnesAndKeepsAUsersRetiming() {
    new ScheduleReconciler(store).apply(definitions(NIGHTLY));
    reconciler.apply(
        definitions(
            """
          - id: jimflow-housekeeping
            trigger: {every: {minutes: 5}}
        """
                + NIGHTLY));
    store.delete("jimflow-history-retention");
    Fingerprint retimed = store.schedules.get("jimflow-housekeeping").fingerprint();

    List<String> created = reconciler.ensureBuiltIns();

    assertThat(created).containsExactly("jimflow-history-retention");
    assertThat(store.schedules.get("jimflow-housekeeping").fingerprint()).isEqualTo(retimed);
    assertThat(store.schedules).containsKey("nightly");
  }

  private static List<ScheduleDefinition> definitions(String... schedules) {
    return ScheduleDefinitions.parse(
        "schedules:" + (schedules.length == 0 ? " []\n" : "\n" + String.join("", schedules)),
        "test.yaml");
  }
}
