package io.jimflow.schedule;

import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StepGroupsTest {

  @Test
  void stepsWithTheSameIndexFormOneGroupAndGroupsFollowTheIndex() {
    StepGroups plan =
        StepGroups.plan(
            List.of(
                aStep(3, "export-a").build(),
                aStep(0, "import").build(),
                aStep(3, "export-b").build(),
                aStep(1, "sync").build()));

    assertThat(plan.groups()).extracting(StepGroups.StepGroup::index).containsExactly(0, 1, 3);
    assertThat(plan.groups().get(2).steps())
        .extracting(p -> p.definition().name(), StepGroups.PlannedStep::position)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("export-a", 0),
            org.assertj.core.groups.Tuple.tuple("export-b", 2));
    assertThat(plan.steps())
        .extracting(p -> p.definition().name())
        .containsExactly("import", "sync", "export-a", "export-b");
  }

  @Test
  void aScheduleWithoutStepsHasNoGroups() {
    assertThat(StepGroups.plan(List.of()).count()).isZero();
  }
}
