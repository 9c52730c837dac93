package io.jimflow.maintenance;

import io.jimflow.schedule.Bounded;
import java.time.Instant;

/**
 * Which metaverse objects housekeeping deletes: those whose deletion grace period has passed, at
 * most a capped number per cycle so that one cycle stays short.
 */
public final class MvoDeletionPolicy {

  /** JIM's cap: at most this many MVOs per housekeeping cycle unless configured otherwise. */
  public static final int DEFAULT_MAX_PER_CYCLE = 50;

  /** The largest cap accepted, so one cycle's transaction never grows without bound. */
  public static final int LIMIT_MAX_PER_CYCLE = 10_000;

  private MvoDeletionPolicy() {}

  /**
   * Whether an MVO is due for deletion: it has a deletion date and that date is not after now (the
   * grace period ends at that instant).
   */
  public static boolean isDue(Instant deletionEligibleAt, Instant now) {
    return deletionEligibleAt != null && !deletionEligibleAt.isAfter(now);
  }

  /**
   * The cap of one cycle: the worker's configured cap, or a lower one a workflow input asks for. A
   * higher one is clamped to the worker's, with a note saying so: a workflow input can make a cycle
   * delete fewer MVOs, never more.
   *
   * @throws IllegalArgumentException when the requested cap is below 1, or the worker's is not
   *     between 1 and {@link #LIMIT_MAX_PER_CYCLE}
   */
  public static Bounded<Integer> maxPerCycle(Integer requested, int workerCap) {
    check(workerCap);
    if (requested == null) {
      return Bounded.kept(workerCap);
    }
    if (requested < 1) {
      throw new IllegalArgumentException(
          "MVOs per housekeeping cycle must be 1 or more, not " + requested);
    }
    if (requested <= workerCap) {
      return Bounded.kept(requested);
    }
    return new Bounded<>(
        workerCap, "MVOs per cycle " + requested + " clamped to the worker's maximum " + workerCap);
  }

  /**
   * Checks a worker's configured cap.
   *
   * @throws IllegalArgumentException when it is below 1 or above {@link #LIMIT_MAX_PER_CYCLE}
   */
  public static void check(int workerCap) {
    if (workerCap < 1 || workerCap > LIMIT_MAX_PER_CYCLE) {
      throw new IllegalArgumentException(
          "MVOs per housekeeping cycle must be between 1 and "
              + LIMIT_MAX_PER_CYCLE
              + ", not "
              + workerCap);
    }
  }
}
