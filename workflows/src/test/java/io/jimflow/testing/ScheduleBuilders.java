package io.jimflow.testing;

import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleDefinition.FailurePolicy;
import io.jimflow.schedule.ScheduleDefinition.OverlapPolicy;
import io.jimflow.schedule.ScheduleExecutionInput;
import io.jimflow.schedule.ScheduleExecutionInput.ExecutionSettings;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepDefinition.RetrySettings;
import io.jimflow.schedule.StepDefinition.RunProfileStep;
import io.jimflow.schedule.StepDefinition.SqlScriptStep;
import io.jimflow.schedule.Trigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Test-data builders for schedules and their steps, shared by every module's tests:
 *
 * <pre>{@code
 * ScheduleDefinition nightly =
 *     aSchedule("nightly").with(aStep(0, "import").runProfile("hr", "full-import")).definition();
 * }</pre>
 *
 * <p>Defaults: enabled, no trigger, one attempt per step, a 5-minute timeout, a 2-second heartbeat
 * timeout, and an Executable step {@code noop.sh} unless told otherwise.
 */
public final class ScheduleBuilders {

  public static ScheduleBuilder aSchedule(String id) {
    return new ScheduleBuilder(id);
  }

  /** A builder holding everything {@code definition} holds, to change one part of it. */
  public static ScheduleBuilder aScheduleLike(ScheduleDefinition definition) {
    ScheduleBuilder b = new ScheduleBuilder(definition.id());
    b.name = definition.name();
    b.description = definition.description();
    b.enabled = definition.enabled();
    b.trigger = definition.trigger();
    b.onStepFailure = definition.onStepFailure();
    b.overlap = definition.overlap();
    b.catchupWindow = definition.catchupWindow();
    b.steps.addAll(definition.steps());
    return b;
  }

  public static StepBuilder aStep(int index, String name) {
    return new StepBuilder(index, name);
  }

  public static final class ScheduleBuilder {
    private final String id;
    private String name;
    private FailurePolicy onStepFailure;
    private final List<StepDefinition> steps = new ArrayList<>();
    private int maxParallelSteps;
    private String description;
    private Trigger trigger;
    private OverlapPolicy overlap;
    private boolean enabled = true;
    private Duration catchupWindow;

    ScheduleBuilder(String id) {
      this.id = id;
      this.name = "Schedule " + id;
    }

    public ScheduleBuilder named(String name) {
      this.name = name;
      return this;
    }

    public ScheduleBuilder describedAs(String description) {
      this.description = description;
      return this;
    }

    public ScheduleBuilder triggeredBy(Trigger trigger) {
      this.trigger = trigger;
      return this;
    }

    public ScheduleBuilder disabled() {
      this.enabled = false;
      return this;
    }

    public ScheduleBuilder catchupWindow(Duration window) {
      this.catchupWindow = window;
      return this;
    }

    public ScheduleBuilder onOverlap(OverlapPolicy policy) {
      this.overlap = policy;
      return this;
    }

    public ScheduleBuilder onStepFailure(FailurePolicy policy) {
      this.onStepFailure = policy;
      return this;
    }

    public ScheduleBuilder maxParallelSteps(int max) {
      this.maxParallelSteps = max;
      return this;
    }

    public ScheduleBuilder with(StepBuilder... stepBuilders) {
      for (StepBuilder s : stepBuilders) {
        steps.add(s.build());
      }
      return this;
    }

    /** Adds steps built elsewhere (in a loop, say), in their order. */
    public ScheduleBuilder withSteps(List<StepDefinition> built) {
      steps.addAll(built);
      return this;
    }

    public ScheduleDefinition definition() {
      return new ScheduleDefinition(
          id, name, description, enabled, trigger, onStepFailure, overlap, catchupWindow, steps);
    }

    public ScheduleExecutionInput input() {
      return new ScheduleExecutionInput(
          definition(),
          new Initiator(InitiatorType.User, "u-1", "Test User"),
          TriggerKind.Manual,
          new ExecutionSettings(maxParallelSteps));
    }
  }

  public static final class StepBuilder {
    private final int index;
    private final String name;
    private Boolean continueOnFailure;
    private Duration timeout = Duration.ofMinutes(5);
    private Duration heartbeatTimeout = Duration.ofSeconds(2);
    private Duration attemptTimeout;
    private Integer maximumAttempts = 1;
    private boolean defaultRetries;
    private RunProfileStep runProfile;
    private ExecutableStep executable = new ExecutableStep("noop.sh", null, null, null);
    private SqlScriptStep sqlScript;

    StepBuilder(int index, String name) {
      this.index = index;
      this.name = name;
    }

    public StepBuilder continueOnFailure(Boolean value) {
      this.continueOnFailure = value;
      return this;
    }

    public StepBuilder timeout(Duration value) {
      this.timeout = value;
      return this;
    }

    public StepBuilder attemptTimeout(Duration value) {
      this.attemptTimeout = value;
      return this;
    }

    public StepBuilder heartbeatTimeout(Duration value) {
      this.heartbeatTimeout = value;
      return this;
    }

    public StepBuilder attempts(Integer value) {
      this.maximumAttempts = value;
      return this;
    }

    /** An Executable step running {@code path} with {@code args}. */
    public StepBuilder executable(String path, String... args) {
      this.executable = new ExecutableStep(path, List.of(args), null, null);
      this.runProfile = null;
      this.sqlScript = null;
      return this;
    }

    /** A SqlScript step running {@code path} on the worker's connection {@code connection}. */
    public StepBuilder sqlScript(String connection, String path) {
      this.sqlScript = new SqlScriptStep(connection, path);
      this.runProfile = null;
      this.executable = null;
      return this;
    }

    /**
     * Leaves timeout, retries and heartbeat timeout to the step defaults, as a schedule file that
     * names none of them does.
     */
    public StepBuilder withStepDefaults() {
      this.timeout = null;
      this.heartbeatTimeout = null;
      this.defaultRetries = true;
      return this;
    }

    /** Null leaves the retry settings to the step defaults (3 attempts). */
    public StepBuilder attemptsOrDefault(Integer value) {
      this.maximumAttempts = value;
      this.defaultRetries = value == null;
      return this;
    }

    public StepBuilder runProfile(String connectedSystem, String profile) {
      this.runProfile = new RunProfileStep(connectedSystem, profile);
      this.executable = null;
      this.sqlScript = null;
      return this;
    }

    public StepDefinition build() {
      return new StepDefinition(
          index,
          name,
          runProfile,
          executable,
          continueOnFailure,
          timeout,
          defaultRetries ? null : new RetrySettings(maximumAttempts, Duration.ofSeconds(1), 2.0),
          heartbeatTimeout,
          attemptTimeout,
          sqlScript);
    }
  }

  private ScheduleBuilders() {}
}
