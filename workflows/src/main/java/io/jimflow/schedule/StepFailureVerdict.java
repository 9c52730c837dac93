package io.jimflow.schedule;

import io.temporal.api.enums.v1.RetryState;
import io.temporal.api.enums.v1.TimeoutType;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TimeoutFailure;
import java.util.function.BooleanSupplier;

/**
 * What a step that ended without a result shows: its status, how many attempts it made and why it
 * ended, read from the failure Temporal reported.
 *
 * <p>The attempts come from whichever source knows most (the board, the failure's details, the last
 * heartbeat, the retry state), because a lost worker leaves only some of them behind.
 *
 * @param attempts at least 1
 */
record StepFailureVerdict(StepStatus status, int attempts, String reason) {

  /**
   * Reads {@code failure}, the end of {@code step} after {@code attemptsSeen} started attempts.
   *
   * @param cancelReachesDeadWorker asked only when the step timed out after its cancel, so that the
   *     version marker behind it is recorded exactly where it always was
   */
  static StepFailureVerdict of(
      StepDefinition step,
      int attemptsSeen,
      RuntimeException failure,
      BooleanSupplier cancelReachesDeadWorker) {
    int attempts = Math.max(1, attemptsSeen);
    StepStatus status = StepStatus.FailedWithError;
    String reason = failure.getMessage();
    if (failure instanceof CanceledFailure) {
      status = StepStatus.Cancelled;
      reason = "cancelled";
    }
    if (failure instanceof ActivityFailure activityFailure) {
      Throwable cause = activityFailure.getCause();
      if (activityFailure.getRetryState() == RetryState.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED) {
        attempts = Math.max(attempts, StepOptions.maximumAttempts(step));
      }
      if (cause instanceof CanceledFailure) {
        status = StepStatus.Cancelled;
        reason = "cancelled";
      } else if (cause instanceof TimeoutFailure timeout
          && cancelledBeforeItsTimeout(activityFailure)
          && cancelReachesDeadWorker.getAsBoolean()) {
        // G7: the cancel could not reach a dead worker; the server ends the step by its timeout
        // and never retries a step whose cancel was requested.
        status = StepStatus.Cancelled;
        reason =
            "cancelled; its worker did not confirm: "
                + describeTimeout(step, timeout.getTimeoutType());
      } else if (cause instanceof ApplicationFailure app) {
        reason = app.getOriginalMessage();
        attempts = Math.max(attempts, failedAttempt(app));
      } else if (cause instanceof TimeoutFailure timeout) {
        reason = describeTimeout(step, timeout.getTimeoutType());
        attempts = Math.max(attempts, heartbeatAttempt(timeout));
      } else if (cause != null) {
        reason = cause.getMessage();
      }
      if (attempts > 1 && status != StepStatus.Cancelled && reason != null) {
        // On the first line, which is what the execution's message quotes.
        int lineEnd = reason.indexOf('\n');
        String suffix = " (after " + attempts + " attempts)";
        reason =
            lineEnd < 0
                ? reason + suffix
                : reason.substring(0, lineEnd) + suffix + reason.substring(lineEnd);
      }
    }
    return new StepFailureVerdict(status, attempts, reason);
  }

  /**
   * True when the step timed out after its cancel was requested: its worker never confirmed the
   * cancel (it is dead or hangs), and the server does not retry a step whose cancel was requested.
   */
  static boolean cancelledBeforeItsTimeout(ActivityFailure failure) {
    return failure.getCause() instanceof TimeoutFailure
        && failure.getRetryState() == RetryState.RETRY_STATE_CANCEL_REQUESTED;
  }

  /**
   * The progress of the attempt that {@code failure} ended because its worker was stopped, or null
   * when it failed otherwise.
   */
  static StepHeartbeat workerStopped(ActivityFailure failure) {
    if (failure.getCause() instanceof ApplicationFailure app
        && StepFailures.WORKER_STOPPED.equals(app.getType())) {
      try {
        if (app.getDetails().getSize() > 0) {
          return app.getDetails().get(0, StepHeartbeat.class);
        }
      } catch (RuntimeException unreadable) {
        // Without its progress the step resumes from its stored checkpoint only.
      }
      return new StepHeartbeat(0, -1, null, 1);
    }
    return null;
  }

  private static int failedAttempt(ApplicationFailure failure) {
    try {
      if (failure.getDetails().getSize() > 0) {
        return failure.getDetails().get(0, StepFailureDetails.class).attempt();
      }
    } catch (RuntimeException notOurs) {
      // A failure raised outside the step runner carries no attempt; the other sources remain.
    }
    return 0;
  }

  private static int heartbeatAttempt(TimeoutFailure timeout) {
    try {
      if (timeout.getLastHeartbeatDetails().getSize() > 0) {
        return timeout.getLastHeartbeatDetails().get(0, StepHeartbeat.class).attempt();
      }
    } catch (RuntimeException notOurs) {
      // No heartbeat of ours recorded; the other sources remain.
    }
    return 0;
  }

  private static String describeTimeout(StepDefinition step, TimeoutType type) {
    return switch (type) {
      case TIMEOUT_TYPE_START_TO_CLOSE ->
          (step.attemptTimeout() == null ? "timed out after " : "an attempt timed out after ")
              + StepOptions.attemptTimeout(step);
      case TIMEOUT_TYPE_SCHEDULE_TO_CLOSE ->
          "timed out after "
              + StepOptions.timeout(step)
              + " (the step's timeout, across all its attempts)";
      case TIMEOUT_TYPE_HEARTBEAT ->
          "lost: no heartbeat within "
              + (step.heartbeatTimeout() == null
                  ? StepOptions.DEFAULT_HEARTBEAT_TIMEOUT
                  : step.heartbeatTimeout())
              + " (its worker stopped or hangs)";
      default -> "timed out (" + type + ")";
    };
  }
}
