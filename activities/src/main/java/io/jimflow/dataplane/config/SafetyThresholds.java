package io.jimflow.dataplane.config;

import java.time.Duration;

/**
 * The thresholds above which a run of a connected system holds for a person's approval instead of
 * sending or marking anything: deletions and updates one export may send, and objects one full
 * import may mark absent. On for every system; {@code thresholds} at the top of the connected
 * systems file changes the default, and a system's own {@code thresholds} change it for that
 * system.
 *
 * @param exportDeletions deletions one export may send
 * @param exportUpdates updates one export may send
 * @param importAbsent objects one full import may mark absent (a source with none of the system's
 *     objects is always above it)
 * @param approvalTimeout how long a held run waits for a person's decision before it is rejected
 * @param samples how many objects of each change (creates, updates, deletes) a held run and a
 *     preview show with their changed attributes' values before and after
 */
public record SafetyThresholds(
    Threshold exportDeletions,
    Threshold exportUpdates,
    Threshold importAbsent,
    Duration approvalTimeout,
    int samples) {

  /** A day: a run held at night waits for the morning's operators. */
  public static final Duration DEFAULT_APPROVAL_TIMEOUT = Duration.ofHours(24);

  public static final Duration MIN_APPROVAL_TIMEOUT = Duration.ofMinutes(1);
  public static final Duration MAX_APPROVAL_TIMEOUT = Duration.ofDays(30);

  /** Enough to see what a change is; few enough that a held step's message stays short. */
  public static final int DEFAULT_SAMPLES = 5;

  public static final int MAX_SAMPLES = 20;

  /**
   * The defaults. Deletions: 500, Entra Connect's default, or 10% of the target (a tenth of a
   * directory gone in one run is a disaster, not a leaver wave). Updates: 2,000 or 50%: routine
   * changes (a reorganisation of a few hundred people) pass, a mapping or source that changes every
   * object holds. Absent: 500 or 10%, as deletions, since what a full import marks absent is
   * deprovisioned after the grace period.
   */
  public static final SafetyThresholds DEFAULTS =
      new SafetyThresholds(
          new Threshold(500, 0.10),
          new Threshold(2_000, 0.50),
          new Threshold(500, 0.10),
          DEFAULT_APPROVAL_TIMEOUT,
          DEFAULT_SAMPLES);
}
