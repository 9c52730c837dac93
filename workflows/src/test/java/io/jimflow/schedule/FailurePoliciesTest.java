package io.jimflow.schedule;

import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.ScheduleDefinition.FailurePolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FailurePoliciesTest {

  @Test
  void aStepsOwnContinueOnFailureOverridesTheScheduleDefault() {
    assertThat(
            FailurePolicies.continuesOnFailure(
                aStep(0, "s").continueOnFailure(true).build(), FailurePolicy.STOP))
        .isTrue();
    assertThat(
            FailurePolicies.continuesOnFailure(
                aStep(0, "s").continueOnFailure(false).build(), FailurePolicy.CONTINUE))
        .isFalse();
    assertThat(FailurePolicies.continuesOnFailure(aStep(0, "s").build(), FailurePolicy.CONTINUE))
        .isTrue();
    assertThat(FailurePolicies.continuesOnFailure(aStep(0, "s").build(), FailurePolicy.STOP))
        .isFalse();
  }

  @Test
  void aGroupStopsWhenAnyFailedStepDoesNotContinue() {
    StepGroups plan =
        StepGroups.plan(
            List.of(
                aStep(0, "ok").build(),
                aStep(0, "tolerated").continueOnFailure(true).build(),
                aStep(0, "fatal").build()));
    Map<Integer, StepOutcome> outcomes =
        Map.of(
            0, outcome("ok", StepStatus.Complete, null),
            1, outcome("tolerated", StepStatus.Cancelled, "cancelled"),
            2, outcome("fatal", StepStatus.FailedWithError, "exit code 3\nmore lines"));

    GroupVerdict verdict =
        FailurePolicies.afterGroup(plan.groups().get(0), outcomes, FailurePolicy.STOP);

    assertThat(verdict.stop()).isTrue();
    assertThat(verdict.describeStopping()).isEqualTo("'fatal' FailedWithError (exit code 3)");
    assertThat(verdict.describeTolerated()).isEqualTo("'tolerated' Cancelled (cancelled)");
  }

  @Test
  void aGroupGoesOnWhenEveryFailureIsToleratedOrNothingFailed() {
    StepGroups plan = StepGroups.plan(List.of(aStep(0, "a").build(), aStep(0, "b").build()));
    Map<Integer, StepOutcome> outcomes =
        Map.of(
            0, outcome("a", StepStatus.CompleteWithWarning, "warned"),
            1, outcome("b", StepStatus.CompleteWithError, "2 errors"));

    assertThat(
            FailurePolicies.afterGroup(plan.groups().get(0), outcomes, FailurePolicy.CONTINUE)
                .stop())
        .isFalse();
    GroupVerdict stopping =
        FailurePolicies.afterGroup(plan.groups().get(0), outcomes, FailurePolicy.STOP);
    assertThat(stopping.stop()).isTrue();
    assertThat(stopping.stopping()).extracting(StepOutcome::name).containsExactly("b");
  }

  @Test
  void aStepThatCompletedWithErrorItemsNoLongerStopsItsExecution() {
    StepGroups plan =
        StepGroups.plan(
            List.of(aStep(0, "import").build(), aStep(0, "sql").build(), aStep(0, "c").build()));
    Map<Integer, StepOutcome> outcomes =
        Map.of(
            0, outcome("import", StepStatus.CompleteWithError, "2 of 10 run items have errors"),
            1, outcome("sql", StepStatus.Complete, null),
            2, outcome("c", StepStatus.Cancelled, "cancelled"));
    Map<Integer, StepOutcome> onlyErrorItems = Map.of(0, outcomes.get(0), 1, outcomes.get(1));

    GroupVerdict errorItems =
        FailurePolicies.afterGroup(plan.groups().get(0), onlyErrorItems, FailurePolicy.STOP, false);
    assertThat(errorItems.stop()).isFalse();
    assertThat(errorItems.tolerated()).extracting(StepOutcome::name).containsExactly("import");
    assertThat(FailurePolicies.finalStatus(false, false, List.copyOf(onlyErrorItems.values())))
        .isEqualTo(ExecutionStatus.CompleteWithError);

    GroupVerdict cancelled =
        FailurePolicies.afterGroup(plan.groups().get(0), outcomes, FailurePolicy.STOP, false);
    assertThat(cancelled.stop()).isTrue();
    assertThat(cancelled.stopping()).extracting(StepOutcome::name).containsExactly("c");
    // Executions that stopped on CompleteWithError before the change replay as they ran.
    assertThat(
            FailurePolicies.afterGroup(plan.groups().get(0), onlyErrorItems, FailurePolicy.STOP)
                .stop())
        .isTrue();
  }

  @Test
  void theFinalStatusFollowsCancelStopAndToleratedFailures() {
    List<StepOutcome> clean =
        List.of(
            outcome("a", StepStatus.Complete, null),
            outcome("w", StepStatus.CompleteWithWarning, null));
    List<StepOutcome> failed =
        List.of(
            outcome("a", StepStatus.Complete, null),
            outcome("f", StepStatus.FailedWithError, null));

    assertThat(FailurePolicies.finalStatus(false, false, clean))
        .isEqualTo(ExecutionStatus.Complete);
    assertThat(FailurePolicies.finalStatus(false, false, failed))
        .isEqualTo(ExecutionStatus.CompleteWithError);
    assertThat(FailurePolicies.finalStatus(false, true, failed)).isEqualTo(ExecutionStatus.Failed);
    assertThat(FailurePolicies.finalStatus(true, true, failed))
        .isEqualTo(ExecutionStatus.Cancelled);
  }

  private static StepOutcome outcome(String name, StepStatus status, String message) {
    return new StepOutcome(0, name, status, 1, null, null, message, null);
  }
}
