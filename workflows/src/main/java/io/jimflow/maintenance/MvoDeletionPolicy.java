package io.jimflow.maintenance;

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
   * The cap of one cycle: the requested one if given, else the configured default.
   *
   * @throws IllegalArgumentException when the requested cap is below 1 or above {@link
   *     #LIMIT_MAX_PER_CYCLE}
   */
  public static int maxPerCycle(Integer requested, int configuredDefault) {
    int cap = requested != null ? requested : configuredDefault;
    if (cap < 1 || cap > LIMIT_MAX_PER_CYCLE) {
      throw new IllegalArgumentException(
          "MVOs per housekeeping cycle must be between 1 and "
              + LIMIT_MAX_PER_CYCLE
              + ", not "
              + cap);
    }
    return cap;
  }
}
