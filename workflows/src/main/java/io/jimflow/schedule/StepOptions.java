package io.jimflow.schedule;

import io.temporal.activity.ActivityCancellationType;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import java.time.Duration;

/**
 * The activity options of a step, from its definition.
 *
 * <p>{@code timeout} bounds the whole step, all attempts and the pauses between them included
 * (schedule-to-close); {@code attemptTimeout} bounds one attempt (start-to-close) and defaults to
 * {@code timeout}. Defaults: a step without {@code timeout} may take {@link #DEFAULT_TIMEOUT} (JIM
 * never enforced its timeout; an unbounded step would let a hung program hold its step forever);
 * heartbeat timeout {@link #DEFAULT_HEARTBEAT_TIMEOUT}; {@link #DEFAULT_MAXIMUM_ATTEMPTS} attempts
 * starting {@link #DEFAULT_INITIAL_INTERVAL} apart, doubling. Configuration errors are never
 * retried.
 */
public final class StepOptions {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofHours(1);
  public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(30);
  public static final int DEFAULT_MAXIMUM_ATTEMPTS = 3;
  public static final Duration DEFAULT_INITIAL_INTERVAL = Duration.ofSeconds(1);
  public static final double DEFAULT_BACKOFF_COEFFICIENT = 2.0;

  /**
   * Finalizing an abandoned step is a short store update; it is retried a few times, then given up.
   */
  static final ActivityOptions ABANDON =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofMinutes(1))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setMaximumAttempts(5)
                  .setDoNotRetry(StepFailures.CONFIGURATION_ERROR)
                  .build())
          .build();

  /** The options of the activity that runs {@code step}. */
  public static ActivityOptions forStep(StepDefinition step) {
    return forStep(step, true);
  }

  /**
   * The options of the activity that runs {@code step}.
   *
   * @param timeoutBoundsWholeStep false only for executions begun when {@code timeout} bounded each
   *     attempt
   */
  public static ActivityOptions forStep(StepDefinition step, boolean timeoutBoundsWholeStep) {
    StepDefinition.RetrySettings retry = step.retry();
    ActivityOptions.Builder options = ActivityOptions.newBuilder();
    if (timeoutBoundsWholeStep) {
      options.setScheduleToCloseTimeout(timeout(step)).setStartToCloseTimeout(attemptTimeout(step));
    } else {
      options.setStartToCloseTimeout(timeout(step));
    }
    return options
        .setHeartbeatTimeout(
            step.heartbeatTimeout() == null ? DEFAULT_HEARTBEAT_TIMEOUT : step.heartbeatTimeout())
        .setRetryOptions(
            RetryOptions.newBuilder()
                .setMaximumAttempts(maximumAttempts(step))
                .setInitialInterval(
                    retry == null || retry.initialInterval() == null
                        ? DEFAULT_INITIAL_INTERVAL
                        : retry.initialInterval())
                .setBackoffCoefficient(
                    retry == null || retry.backoffCoefficient() == null
                        ? DEFAULT_BACKOFF_COEFFICIENT
                        : retry.backoffCoefficient())
                .setDoNotRetry(StepFailures.CONFIGURATION_ERROR)
                .build())
        // The workflow must not end (or go on) while a cancelled step's program still runs.
        .setCancellationType(ActivityCancellationType.WAIT_CANCELLATION_COMPLETED)
        .setSummary(summary(step))
        .build();
  }

  public static Duration timeout(StepDefinition step) {
    return step.timeout() == null ? DEFAULT_TIMEOUT : step.timeout();
  }

  /** The longest one attempt of {@code step} may run. */
  public static Duration attemptTimeout(StepDefinition step) {
    return step.attemptTimeout() == null ? timeout(step) : step.attemptTimeout();
  }

  public static int maximumAttempts(StepDefinition step) {
    return step.retry() == null || step.retry().maximumAttempts() == null
        ? DEFAULT_MAXIMUM_ATTEMPTS
        : step.retry().maximumAttempts();
  }

  /**
   * What the Temporal UI shows for the step's activity, e.g. {@code Import HR · run profile HR /
   * Full Import}.
   */
  public static String summary(StepDefinition step) {
    if (step.runProfile() != null) {
      return step.name()
          + " · run profile "
          + step.runProfile().connectedSystem()
          + " / "
          + step.runProfile().runProfile();
    }
    if (step.executable() != null) {
      return step.name() + " · executable " + step.executable().path();
    }
    if (step.sqlScript() != null) {
      return step.name()
          + " · SQL script "
          + step.sqlScript().path()
          + " on "
          + step.sqlScript().connection();
    }
    return step.name();
  }

  private StepOptions() {}
}
