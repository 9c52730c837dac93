package io.jimflow.schedule.steps;

import io.jimflow.schedule.StepHeartbeat;
import io.temporal.activity.ActivityExecutionContext;
import java.util.Optional;

/**
 * A {@link StepProgress} backed by the activity's heartbeats: each report is a {@link
 * StepHeartbeat}, and the checkpoint a lost earlier attempt heartbeated is where this one starts.
 *
 * <p>The SDK sends at most one heartbeat per 0.8 × heartbeat timeout and keeps the latest details
 * meanwhile, so reporting often is cheap.
 */
public final class HeartbeatStepProgress implements StepProgress {

  private final ActivityExecutionContext context;
  private final int attempt;
  private long processed;
  private long total = -1;
  private String checkpoint;

  public HeartbeatStepProgress(ActivityExecutionContext context) {
    this(context, Math.max(1, context.getInfo().getAttempt()), null);
  }

  /**
   * @param attempt the step's attempt this activity runs
   * @param resumeFrom the progress of an attempt interrupted by its worker's stop, which this run
   *     continues; null if none. A lost attempt of this run heartbeated later progress.
   */
  public HeartbeatStepProgress(
      ActivityExecutionContext context, int attempt, StepHeartbeat resumeFrom) {
    this.context = context;
    this.attempt = attempt;
    Optional.ofNullable(context.getHeartbeatDetails(StepHeartbeat.class).orElse(null))
        .or(() -> Optional.ofNullable(resumeFrom))
        .ifPresent(
            previous -> {
              processed = previous.processed();
              total = previous.total();
              checkpoint = previous.checkpoint();
            });
  }

  /** The progress so far, as the next heartbeat would record it. */
  public synchronized StepHeartbeat snapshot() {
    return new StepHeartbeat(processed, total, checkpoint, attempt);
  }

  @Override
  public synchronized void report(long processed, long total, String checkpoint) {
    this.processed = processed;
    this.total = total;
    if (checkpoint != null) {
      this.checkpoint = checkpoint;
    }
    context.heartbeat(new StepHeartbeat(processed, total, this.checkpoint, attempt));
  }

  @Override
  public synchronized Optional<String> lastCheckpoint() {
    return Optional.ofNullable(checkpoint);
  }
}
