package io.jimflow.schedule.steps;

import io.jimflow.schedule.Bounded;
import io.jimflow.schedule.StepFailures;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * A RunProfile step's progress held to the attempt's time on this worker: once the attempt has run
 * longer than {@code timeout}, the next report (after a page, or a heartbeat of long work) ends the
 * step with a non-retryable {@link StepFailures#RUN_PROFILE_TIMED_OUT} failure naming the time. The
 * run profile's executor finalizes its run record with that message. Connectors have no deadline of
 * their own; this is where the worker's maximum timeout ({@link StepMaxima}) reaches them.
 */
public final class DeadlineStepProgress implements StepProgress {

  private final StepProgress progress;
  private final String stepName;
  private final Duration timeout;
  private final LongSupplier nanoClock;
  private final long deadline;

  public DeadlineStepProgress(StepProgress progress, String stepName, Duration timeout) {
    this(progress, stepName, timeout, System::nanoTime);
  }

  DeadlineStepProgress(
      StepProgress progress, String stepName, Duration timeout, LongSupplier nanoClock) {
    this.progress = progress;
    this.stepName = stepName;
    this.timeout = timeout;
    this.nanoClock = nanoClock;
    this.deadline = nanoClock.getAsLong() + timeout.toNanos();
  }

  @Override
  public void report(long processed, long total, String checkpoint) {
    progress.report(processed, total, checkpoint);
    if (nanoClock.getAsLong() - deadline > 0) {
      throw ApplicationFailure.newNonRetryableFailure(
          "Step '"
              + stepName
              + "' ran longer than "
              + Bounded.format(timeout)
              + " and was stopped after "
              + processed
              + (total >= 0 ? " of " + total : "")
              + " objects",
          StepFailures.RUN_PROFILE_TIMED_OUT);
    }
  }

  @Override
  public Optional<String> lastCheckpoint() {
    return progress.lastCheckpoint();
  }
}
