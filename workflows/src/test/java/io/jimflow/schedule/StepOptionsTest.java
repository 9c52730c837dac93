package io.jimflow.schedule;

import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.temporal.activity.ActivityCancellationType;
import io.temporal.activity.ActivityOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class StepOptionsTest {

  @Test
  void aStepsTimeoutHeartbeatAndRetryBecomeItsActivityOptions() {
    ActivityOptions options =
        StepOptions.forStep(
            aStep(0, "import")
                .runProfile("HR", "Full Import")
                .timeout(Duration.ofMinutes(90))
                .heartbeatTimeout(Duration.ofSeconds(10))
                .attempts(5)
                .build());

    assertThat(options.getScheduleToCloseTimeout())
        .as("timeout bounds the whole step, all attempts together")
        .isEqualTo(Duration.ofMinutes(90));
    assertThat(options.getStartToCloseTimeout())
        .as("without attemptTimeout one attempt may take the whole timeout")
        .isEqualTo(Duration.ofMinutes(90));
    assertThat(options.getHeartbeatTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(options.getRetryOptions().getMaximumAttempts()).isEqualTo(5);
    assertThat(options.getRetryOptions().getDoNotRetry())
        .containsExactly(StepFailures.CONFIGURATION_ERROR);
    assertThat(options.getCancellationType())
        .isEqualTo(ActivityCancellationType.WAIT_CANCELLATION_COMPLETED);
    assertThat(options.getSummary()).isEqualTo("import · run profile HR / Full Import");
  }

  @Test
  void attemptTimeoutBoundsOneAttemptAndTimeoutTheWholeStep() {
    StepDefinition step =
        aStep(0, "import")
            .timeout(Duration.ofHours(3))
            .attemptTimeout(Duration.ofHours(1))
            .attempts(3)
            .build();

    ActivityOptions options = StepOptions.forStep(step);

    assertThat(options.getScheduleToCloseTimeout()).isEqualTo(Duration.ofHours(3));
    assertThat(options.getStartToCloseTimeout()).isEqualTo(Duration.ofHours(1));
    assertThat(StepOptions.forStep(step, false).getScheduleToCloseTimeout())
        .as("executions begun before the whole-step bound keep the per-attempt timeout")
        .isNull();
    assertThat(StepOptions.forStep(step, false).getStartToCloseTimeout())
        .isEqualTo(Duration.ofHours(3));
  }

  @Test
  void aStepWithoutSettingsGetsTheDocumentedDefaults() {
    StepDefinition bare =
        new StepDefinition(
            2,
            "export",
            null,
            new ExecutableStep("export.sh", null, null, null),
            null,
            null,
            null,
            null,
            null,
            null);

    ActivityOptions options = StepOptions.forStep(bare);

    assertThat(options.getScheduleToCloseTimeout()).isEqualTo(Duration.ofHours(1));
    assertThat(options.getStartToCloseTimeout()).isEqualTo(Duration.ofHours(1));
    assertThat(options.getHeartbeatTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(options.getRetryOptions().getMaximumAttempts()).isEqualTo(3);
    assertThat(options.getRetryOptions().getInitialInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(options.getRetryOptions().getBackoffCoefficient()).isEqualTo(2.0);
    assertThat(options.getSummary()).isEqualTo("export · executable export.sh");
  }
}
