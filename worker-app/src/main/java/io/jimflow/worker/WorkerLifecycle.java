package io.jimflow.worker;

import io.temporal.worker.WorkerFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Starts the Temporal workers with the application and stops them gracefully: on SIGTERM polling is
 * suspended first (so that this worker takes no more tasks, not even an eagerly dispatched
 * activity), then the factory shuts down: running activities see the shutdown on their next
 * heartbeat (a step checkpoints and ends with a failure its execution does not count, and resumes
 * it on another worker), and the process waits up to the grace period for them to end. The Spring
 * Boot starter alone would shut the factory down without waiting.
 */
@Component
public class WorkerLifecycle implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(WorkerLifecycle.class);

  /** Stops before the web server, so health reports DOWN only once polling has stopped. */
  static final int PHASE = SmartLifecycle.DEFAULT_PHASE;

  private final WorkerFactory factory;
  private final WorkerSettings settings;
  private volatile boolean running;

  /**
   * @param searchAttributes taken so that the namespace is checked before any worker polls
   */
  public WorkerLifecycle(
      WorkerFactory factory, WorkerSettings settings, SearchAttributeCheck searchAttributes) {
    this.factory = factory;
    this.settings = settings;
  }

  @Override
  public void start() {
    factory.start();
    running = true;
  }

  @Override
  public void stop() {
    if (!running) {
      return;
    }
    long graceMs = settings.shutdownGracePeriod().toMillis();
    log.info("Shutting down workers; waiting up to {} ms for running activities", graceMs);
    try {
      factory.suspendPolling();
      factory.shutdown();
      long started = System.nanoTime();
      factory.awaitTermination(graceMs, TimeUnit.MILLISECONDS);
      if (TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) >= graceMs) {
        log.warn(
            "Activities still running after the {} ms grace period; Temporal retries them on another"
                + " worker from their last heartbeat",
            graceMs);
        factory.shutdownNow();
      }
    } catch (RuntimeException e) {
      log.warn("Worker shutdown did not complete cleanly", e);
    } finally {
      running = false;
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }

  public boolean workersStarted() {
    return running && factory.isStarted() && !factory.isShutdown();
  }
}
