package io.jimflow.schedule.deploy;

import static io.jimflow.testing.ScheduleBuilders.aScheduleLike;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.common.TaskQueues;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.file.ScheduleDefinitions;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScheduleMapperTest {

  private static final ScheduleDefinition NIGHTLY =
      ScheduleDefinitions.parse(
"""
schedules:
  - id: nightly
    name: Nightly HR Sync
    description: Imports HR every night.
    enabled: false
    overlap: cancel-other
    catchupWindow: PT1H
    trigger: {cron: "0 2 * * *", timezone: Europe/London}
    steps:
      - {index: 0, name: Import, runProfile: {connectedSystem: HR, runProfile: Full Import}}
""",
              "test.yaml")
          .get(0);

  @Test
  void theActionStartsAScheduleExecutionOnTheSchedulesQueueWithTheDefinitionSnapshot() {
    ScheduleActionStartWorkflow action =
        (ScheduleActionStartWorkflow) ScheduleMapper.desired(NIGHTLY).schedule().getAction();

    assertThat(action.getWorkflowType()).isEqualTo(ScheduleExecutionWorkflow.TYPE);
    assertThat(action.getOptions().getWorkflowId()).isEqualTo("nightly");
    assertThat(action.getOptions().getTaskQueue()).isEqualTo(TaskQueues.SCHEDULES);
    assertThat(
            action.getOptions().getTypedSearchAttributes().get(JimflowSearchAttributes.SCHEDULE_ID))
        .isEqualTo("nightly");
    assertThat(action.getOptions().getTypedSearchAttributes().get(JimflowSearchAttributes.STATUS))
        .isEqualTo("InProgress");
    assertThat(action.getOptions().getStaticSummary()).isEqualTo("Nightly HR Sync · scheduled run");
    assertThat(action.getOptions().getStaticDetails())
        .contains("`nightly` · Nightly HR Sync")
        .contains("**Trigger** Scheduled");
    assertThat(action.getOptions().getMemo())
        .containsEntry(ScheduleMapper.MANAGED_MEMO, true)
        .containsEntry(ScheduleMapper.NOTE_MEMO, "Imports HR every night.")
        .containsKey(ScheduleMapper.FINGERPRINT_MEMO);
    ScheduleExecutionInput input = action.getArguments().get(0, ScheduleExecutionInput.class);
    assertThat(input.definition()).isEqualTo(NIGHTLY);
    assertThat(input.initiator())
        .isEqualTo(
            new ScheduleExecutionInput.Initiator(
                ScheduleExecutionInput.InitiatorType.Schedule, "nightly", "Nightly HR Sync"));
    assertThat(input.trigger()).isEqualTo(ScheduleExecutionInput.TriggerKind.Scheduled);
  }

  @Test
  void policiesAndPausedStateFollowTheDefinition() {
    var schedule = ScheduleMapper.desired(NIGHTLY).schedule();

    assertThat(schedule.getPolicy().getOverlap())
        .isEqualTo(ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_CANCEL_OTHER);
    assertThat(schedule.getPolicy().getCatchupWindow()).isEqualTo(Duration.ofHours(1));
    assertThat(schedule.getState().isPaused()).isTrue();
    assertThat(schedule.getState().getNote()).isEqualTo("Imports HR every night.");
    assertThat(schedule.getSpec().getCronExpressions()).containsExactly("0 2 * * *");
  }

  @Test
  void theFingerprintIsStableAndOnlyItsChangedPartDiffers() {
    ScheduleDefinition renamed = aScheduleLike(NIGHTLY).named("Renamed").definition();

    assertThat(ScheduleMapper.fingerprint(NIGHTLY)).isEqualTo(ScheduleMapper.fingerprint(NIGHTLY));
    assertThat(
            ScheduleMapper.fingerprint(renamed)
                .differencesFrom(ScheduleMapper.fingerprint(NIGHTLY)))
        .containsExactly("action");
  }

  @Test
  void everyOverlapPolicyHasATemporalCounterpart() {
    for (ScheduleDefinition.OverlapPolicy p : ScheduleDefinition.OverlapPolicy.values()) {
      assertThat(ScheduleMapper.overlap(p).name()).endsWith(p.name());
    }
  }
}
