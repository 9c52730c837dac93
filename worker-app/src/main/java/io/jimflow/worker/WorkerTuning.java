package io.jimflow.worker;

import io.temporal.worker.WorkerOptions;
import java.time.Duration;

/**
 * The Temporal worker options every jimflow worker runs with ({@link
 * TemporalWorkersConfiguration}); tests that host a worker in-process use {@link #apply} too, so
 * they measure what a deployment runs.
 *
 * <p>Eager activity execution stays on (the SDK's default, stated here so nobody turns it off
 * unknowingly): a step scheduled by a workflow task comes back in that task's completion instead of
 * a separate poll, which takes a round trip off every group advance. It needs the server's dynamic
 * config {@code system.enableActivityEagerExecution=true}; without it the worker simply polls.
 */
public final class WorkerTuning {

  /**
   * The longest the SDK holds back a step's heartbeat. Its default throttle is 0.8 × the heartbeat
   * timeout (24 s for a step's default 30 s), and a cancel reaches a running step only in a
   * heartbeat's answer: capped, a cancelled step stops and its progress shows within about 5 s, for
   * one heartbeat call per running step every 5 s.
   */
  public static final Duration MAX_HEARTBEAT_THROTTLE = Duration.ofSeconds(5);

  /** Applies jimflow's worker options to {@code options}. */
  public static WorkerOptions.Builder apply(WorkerOptions.Builder options) {
    return options
        .setDisableEagerExecution(false)
        .setMaxHeartbeatThrottleInterval(MAX_HEARTBEAT_THROTTLE);
  }

  private WorkerTuning() {}
}
