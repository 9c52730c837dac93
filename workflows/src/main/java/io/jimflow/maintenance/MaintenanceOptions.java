package io.jimflow.maintenance;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import java.time.Duration;

/** Timeouts and retries of the maintenance activities. */
final class MaintenanceOptions {

  private static final RetryOptions RETRY =
      RetryOptions.newBuilder()
          .setInitialInterval(Duration.ofSeconds(1))
          .setBackoffCoefficient(2.0)
          .setMaximumInterval(Duration.ofMinutes(1))
          .setMaximumAttempts(10)
          .setDoNotRetry(
              MaintenanceActivities.UNKNOWN_SYSTEM,
              MaintenanceActivities.SYSTEM_BUSY,
              IllegalArgumentException.class.getName())
          .build();

  /** Work in many short transactions: bounded by heartbeats, not by a guess of its length. */
  static final ActivityOptions LONG =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofHours(6))
          .setHeartbeatTimeout(Duration.ofMinutes(1))
          .setRetryOptions(RETRY)
          .build();

  /** One short transaction. */
  static final ActivityOptions SHORT =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofMinutes(1))
          .setRetryOptions(RETRY)
          .build();

  private MaintenanceOptions() {}
}
