package io.jimflow.schedule;

import io.jimflow.schedule.ScheduleDefinition.FailurePolicy;
import io.jimflow.schedule.ScheduleExecutionInput.ExecutionSettings;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepDefinition.RetrySettings;
import io.jimflow.schedule.StepDefinition.RunProfileStep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Test-data builders for schedules and their steps. */
final class Schedules {

  static ScheduleBuilder schedule(String id) {
    return new ScheduleBuilder(id);
  }

  static StepBuilder step(int index, String name) {
    return new StepBuilder(index, name);
  }

  static final class ScheduleBuilder {
    private final String id;
    private String name;
    private FailurePolicy onStepFailure;
    private final List<StepDefinition> steps = new ArrayList<>();
    private int maxParallelSteps;

    ScheduleBuilder(String id) {
      this.id = id;
      this.name = "Schedule " + id;
    }

    ScheduleBuilder named(String name) {
      this.name = name;
      return this;
    }

    ScheduleBuilder onStepFailure(FailurePolicy policy) {
      this.onStepFailure = policy;
      return this;
    }

    ScheduleBuilder maxParallelSteps(int max) {
      this.maxParallelSteps = max;
      return this;
    }

    ScheduleBuilder with(StepBuilder... stepBuilders) {
      for (StepBuilder s : stepBuilders) {
        steps.add(s.build());
      }
      return this;
    }

    ScheduleDefinition definition() {
      return new ScheduleDefinition(id, name, null, true, null, onStepFailure, null, null, steps);
    }

    ScheduleExecutionInput input() {
      return new ScheduleExecutionInput(
          definition(),
          new Initiator(InitiatorType.User, "u-1", "Test User"),
          TriggerKind.Manual,
          new ExecutionSettings(maxParallelSteps));
    }
  }

  static final class StepBuilder {
    private final int index;
    private final String name;
    private Boolean continueOnFailure;
    private Duration timeout = Duration.ofMinutes(5);
    private Duration heartbeatTimeout = Duration.ofSeconds(2);
    private Integer maximumAttempts = 1;
    private RunProfileStep runProfile;
    private ExecutableStep executable = new ExecutableStep("noop.sh", null, null, null);

    StepBuilder(int index, String name) {
      this.index = index;
      this.name = name;
    }

    StepBuilder continueOnFailure(Boolean value) {
      this.continueOnFailure = value;
      return this;
    }

    StepBuilder timeout(Duration value) {
      this.timeout = value;
      return this;
    }

    StepBuilder heartbeatTimeout(Duration value) {
      this.heartbeatTimeout = value;
      return this;
    }

    StepBuilder attempts(Integer value) {
      this.maximumAttempts = value;
      return this;
    }

    StepBuilder runProfile(String connectedSystem, String profile) {
      this.runProfile = new RunProfileStep(connectedSystem, profile);
      this.executable = null;
      return this;
    }

    StepDefinition build() {
      return new StepDefinition(
          index,
          name,
          runProfile,
          executable,
          continueOnFailure,
          timeout,
          new RetrySettings(maximumAttempts, Duration.ofSeconds(1), 2.0),
          heartbeatTimeout);
    }
  }

  private Schedules() {}
}
