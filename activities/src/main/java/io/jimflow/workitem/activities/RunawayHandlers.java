package io.jimflow.workitem.activities;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handler threads that did not stop when their work item was killed (or their WorkItemFinished
 * overran) and interrupted: the run activity released their slot without them. While one of them
 * still runs, the worker is unhealthy; its health endpoint and heartbeat file say so.
 */
public final class RunawayHandlers {

  private static final Logger log = LoggerFactory.getLogger(RunawayHandlers.class);

  /**
   * One handler thread that kept running.
   *
   * @param call {@code run} or {@code finished}
   */
  public record Runaway(
      String guid, String kind, int instance, String call, Instant since, Thread thread) {

    /** One line for logs and the health endpoint. */
    public String describe() {
      return kind
          + " "
          + guid
          + " instance "
          + instance
          + ": "
          + call
          + " ignored its kill (thread "
          + thread.getName()
          + ", since "
          + since
          + ")";
    }
  }

  private final List<Runaway> runaways = new CopyOnWriteArrayList<>();
  private final Clock clock;

  public RunawayHandlers() {
    this(Clock.systemUTC());
  }

  public RunawayHandlers(Clock clock) {
    this.clock = clock;
  }

  /** Records a handler thread that kept running after it was interrupted, and logs it. */
  public void add(String guid, String kind, int instance, String call, Thread thread) {
    Runaway r = new Runaway(guid, kind, instance, call, clock.instant(), thread);
    runaways.add(r);
    log.error(
        "work item {}: released its slot without the handler, which runs on; this worker is"
            + " unhealthy until the thread ends (restart the worker if it does not)",
        r.describe());
  }

  /** The runaway handler threads still alive; ended ones are forgotten (the worker recovers). */
  public List<Runaway> current() {
    runaways.removeIf(r -> !r.thread().isAlive());
    return List.copyOf(runaways);
  }

  /** True while no runaway handler thread is alive. */
  public boolean healthy() {
    return current().isEmpty();
  }
}
