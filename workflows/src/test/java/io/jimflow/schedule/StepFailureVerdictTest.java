package io.jimflow.schedule;

import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.api.enums.v1.RetryState;
import io.temporal.api.enums.v1.TimeoutType;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TimeoutFailure;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StepFailureVerdictTest {

  private static final StepDefinition STEP =
      aStep(0, "sync").heartbeatTimeout(Duration.ofSeconds(30)).attempts(3).build();

  /**
   * G7: a step whose cancel could not reach its dead worker ends by its timeout, with the retry
   * state CANCEL_REQUESTED (the server never retries it); that counts as cancelled. The test server
   * never times out an activity whose cancel was requested, so StepCancellationIT shows the whole
   * path with a killed worker process and a real server.
   */
  @Test
  void aStepThatTimedOutAfterItsCancelWasRequestedCountsAsCancelled() {
    assertThat(
            StepFailureVerdict.cancelledBeforeItsTimeout(
                timedOut(RetryState.RETRY_STATE_CANCEL_REQUESTED)))
        .isTrue();
    assertThat(
            StepFailureVerdict.cancelledBeforeItsTimeout(timedOut(RetryState.RETRY_STATE_TIMEOUT)))
        .as("a step lost without a cancel is a failure")
        .isFalse();
    assertThat(
            StepFailureVerdict.cancelledBeforeItsTimeout(
                timedOut(RetryState.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED)))
        .isFalse();
  }

  /** One row per way a step ends without a result, and what its rail and record then show. */
  @ParameterizedTest(name = "{0} after {1} seen attempt(s), retry state {2} → {3} after {4}: {5}")
  @CsvSource(
      delimiter = '|',
      value = {
        // lost by its heartbeat: the step's own timeout is named
        "heartbeat | 1 | RETRY_STATE_TIMEOUT | FailedWithError | 1 |"
            + " lost: no heartbeat within PT30S (its worker stopped or hangs)",
        // every attempt used: the count is the step's maximum, said on the first line
        "heartbeat | 1 | RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED | FailedWithError | 3 |"
            + " lost: no heartbeat within PT30S (its worker stopped or hangs) (after 3 attempts)",
        "failure   | 2 | RETRY_STATE_NON_RETRYABLE_FAILURE | FailedWithError | 2 |"
            + " exit 3 (after 2 attempts)",
        "failure   | 0 | RETRY_STATE_NON_RETRYABLE_FAILURE | FailedWithError | 1 | exit 3",
        // the cancel reached the step
        "cancelled | 1 | RETRY_STATE_CANCEL_REQUESTED | Cancelled | 1 | cancelled",
        // the cancel could not reach a dead worker, which the server then timed out
        "heartbeat | 2 | RETRY_STATE_CANCEL_REQUESTED | Cancelled | 2 |"
            + " cancelled; its worker did not confirm: lost: no heartbeat within PT30S (its worker"
            + " stopped or hangs)",
      })
  void aFailedStepShowsItsStatusAttemptsAndReason(
      String cause,
      int attemptsSeen,
      RetryState retryState,
      StepStatus status,
      int attempts,
      String reason) {
    StepFailureVerdict verdict =
        StepFailureVerdict.of(STEP, attemptsSeen, failure(cause, retryState), () -> true);

    assertThat(verdict).isEqualTo(new StepFailureVerdict(status, attempts, reason));
  }

  @Test
  void executionsBegunBeforeTheDeadWorkerRuleShowSuchAStepAsFailed() {
    StepFailureVerdict verdict =
        StepFailureVerdict.of(
            STEP, 1, timedOut(RetryState.RETRY_STATE_CANCEL_REQUESTED), () -> false);

    assertThat(verdict.status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(verdict.reason()).startsWith("lost: no heartbeat");
  }

  @Test
  void theDeadWorkerRuleIsAskedOnlyForAStepThatTimedOutAfterItsCancel() {
    AtomicInteger asked = new AtomicInteger();

    StepFailureVerdict.of(
        STEP,
        1,
        failure("failure", RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE),
        () -> {
          asked.incrementAndGet();
          return true;
        });
    StepFailureVerdict.of(
        STEP,
        1,
        timedOut(RetryState.RETRY_STATE_TIMEOUT),
        () -> {
          asked.incrementAndGet();
          return true;
        });

    assertThat(asked).as("its version marker is recorded where it always was").hasValue(0);
  }

  @Test
  void aCancelOutsideAnActivityCountsAsCancelled() {
    StepFailureVerdict verdict =
        StepFailureVerdict.of(STEP, 0, new CanceledFailure("scope cancelled"), () -> true);

    assertThat(verdict).isEqualTo(new StepFailureVerdict(StepStatus.Cancelled, 1, "cancelled"));
  }

  @Test
  void anAttemptStoppedWithItsWorkerIsToldApartFromAFailure() {
    ActivityFailure stopped =
        activityFailure(
            RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE,
            ApplicationFailure.newNonRetryableFailure("stopping", StepFailures.WORKER_STOPPED));

    assertThat(StepFailureVerdict.workerStopped(stopped)).isNotNull();
    assertThat(
            StepFailureVerdict.workerStopped(
                failure("failure", RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE)))
        .isNull();
  }

  private static ActivityFailure failure(String cause, RetryState retryState) {
    return switch (cause) {
      case "heartbeat" -> timedOut(retryState);
      case "cancelled" -> activityFailure(retryState, new CanceledFailure("cancelled"));
      default ->
          activityFailure(
              retryState,
              ApplicationFailure.newNonRetryableFailure("exit 3", StepFailures.EXECUTABLE_FAILED));
    };
  }

  private static ActivityFailure timedOut(RetryState retryState) {
    return activityFailure(
        retryState, new TimeoutFailure("heartbeat", null, TimeoutType.TIMEOUT_TYPE_HEARTBEAT));
  }

  private static ActivityFailure activityFailure(RetryState retryState, RuntimeException cause) {
    return new ActivityFailure(
        "activity failed", 5, 6, "RunStep", "7", retryState, "worker-a", cause);
  }
}
