package io.jimflow.steps;

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
    this.context = context;
    this.attempt = Math.max(1, context.getInfo().getAttempt());
    context
        .getHeartbeatDetails(StepHeartbeat.class)
        .ifPresent(
            previous -> {
              processed = previous.processed();
              total = previous.total();
              checkpoint = previous.checkpoint();
            });
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
