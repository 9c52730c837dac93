package io.jimflow.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.jimflow.registration.WorkerRegistration;
import io.jimflow.worker.dev.TemporalCli;
import io.jimflow.worker.workitem.WorkItemSettings;
import io.temporal.activity.ActivityInterface;
import io.temporal.worker.WorkerOptions;
import io.temporal.workflow.WorkflowInterface;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TemporalWorkersConfigurationTest {

  private static final List<JavaClass> WORKFLOWS_MODULE =
      new ClassFileImporter()
              .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
              .importPath(
                  TemporalCli.projectHome().orElseThrow().resolve("workflows/target/classes"))
              .stream()
              .toList();

  @Test
  void everyWorkflowImplementationIsRegisteredOnExactlyOneQueue() {
    List<String> implementations =
        WORKFLOWS_MODULE.stream()
            .filter(c -> !c.isInterface())
            .filter(
                c ->
                    c.getAllRawInterfaces().stream()
                        .anyMatch(i -> i.isAnnotatedWith(WorkflowInterface.class)))
            .map(JavaClass::getName)
            .toList();

    assertThat(WorkerRegistration.allWorkflows().stream().map(Class::getName))
        .containsExactlyInAnyOrderElementsOf(implementations);
  }

  @Test
  void everyActivityInterfaceIsRegisteredOnSomeQueue() {
    List<String> interfaces =
        WORKFLOWS_MODULE.stream()
            .filter(c -> c.isAnnotatedWith(ActivityInterface.class))
            .map(JavaClass::getName)
            .toList();

    assertThat(
            Arrays.stream(WorkerRegistration.values())
                .flatMap(r -> r.activities().stream())
                .map(Class::getName)
                .distinct())
        .containsExactlyInAnyOrderElementsOf(interfaces);
  }

  @Test
  void theWorkItemSlotsBoundOnlyTheRunQueuesActivities() {
    WorkItemSettings sevenSlots = new WorkItemSettings(7, null, null, null, null, null, null);
    int sdkDefault = WorkerOptions.newBuilder().build().getMaxConcurrentActivityExecutionSize();

    assertThat(
            TemporalWorkersConfiguration.options(WorkerRegistration.WORK_ITEM_RUNS, sevenSlots)
                .build()
                .getMaxConcurrentActivityExecutionSize())
        .isEqualTo(7);
    assertThat(
            TemporalWorkersConfiguration.options(WorkerRegistration.SCHEDULES, sevenSlots)
                .build()
                .getMaxConcurrentActivityExecutionSize())
        .isEqualTo(sdkDefault);
    assertThat(new WorkItemSettings(null, null, null, null, null, null, null).slots())
        .isEqualTo(WorkItemSettings.DEFAULT_SLOTS);
  }

  @Test
  void everyQueueGetsJimflowsWorkerOptions() {
    for (WorkerRegistration registration : WorkerRegistration.values()) {
      assertThat(
              TemporalWorkersConfiguration.options(
                      registration, new WorkItemSettings(null, null, null, null, null, null, null))
                  .build()
                  .getMaxHeartbeatThrottleInterval())
          .as(registration.name())
          .isEqualTo(WorkerTuning.MAX_HEARTBEAT_THROTTLE);
    }
  }
}
