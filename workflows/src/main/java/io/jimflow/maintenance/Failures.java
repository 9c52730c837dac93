package io.jimflow.maintenance;

import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;

/** Messages of failed maintenance activities, for run records. */
final class Failures {

  private Failures() {}

  /** The innermost message: what the activity itself said, not Temporal's wrapper. */
  static String message(Throwable failure) {
    Throwable cause = failure;
    while (cause instanceof ActivityFailure && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof ApplicationFailure application) {
      return application.getOriginalMessage();
    }
    if (cause instanceof CanceledFailure) {
      return "cancelled";
    }
    return String.valueOf(cause.getMessage());
  }

  static boolean isCancellation(Throwable failure) {
    Throwable cause = failure;
    while (cause != null) {
      if (cause instanceof CanceledFailure) {
        return true;
      }
      cause = cause.getCause();
    }
    return false;
  }
}
