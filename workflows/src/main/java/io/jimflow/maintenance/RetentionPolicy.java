package io.jimflow.maintenance;

import io.jimflow.schedule.Bounded;
import java.time.Duration;
import java.time.Instant;

/**
 * How long each kind of history is kept; an entry strictly older than its period is deleted.
 *
 * <p>A null period means "the worker's default" when the policy is an override in a workflow input.
 */
public record RetentionPolicy(Duration csoChanges, Duration mvoChanges, Duration runRecords) {

  /** JIM's default retention period. */
  public static final Duration DEFAULT_PERIOD = Duration.ofDays(90);

  /** The shortest period accepted: history is never deleted the day it was written. */
  public static final Duration MINIMUM_PERIOD = Duration.ofDays(1);

  public static final RetentionPolicy DEFAULT =
      new RetentionPolicy(DEFAULT_PERIOD, DEFAULT_PERIOD, DEFAULT_PERIOD);

  public RetentionPolicy {
    check("csoChanges", csoChanges);
    check("mvoChanges", mvoChanges);
    check("runRecords", runRecords);
  }

  /** The period of one kind; null if this (override) policy leaves it to the default. */
  public Duration period(HistoryKind kind) {
    return switch (kind) {
      case CsoChanges -> csoChanges;
      case MvoChanges -> mvoChanges;
      case RunRecords -> runRecords;
    };
  }

  /** This policy with the periods {@code overrides} sets replacing its own. */
  public RetentionPolicy overriddenBy(RetentionPolicy overrides) {
    if (overrides == null) {
      return this;
    }
    return new RetentionPolicy(
        pick(overrides.csoChanges, csoChanges),
        pick(overrides.mvoChanges, mvoChanges),
        pick(overrides.runRecords, runRecords));
  }

  /**
   * The period of one kind for a run whose input asks for {@code overrides}: the override when it
   * keeps history at least as long as this (the worker's) policy, else this policy's own period,
   * with a note saying so. A workflow input can lengthen retention, never shorten it below what the
   * worker is configured to keep.
   */
  public Bounded<Duration> boundedPeriod(HistoryKind kind, RetentionPolicy overrides) {
    Duration own = period(kind);
    Duration asked = overrides == null ? null : overrides.period(kind);
    if (asked == null) {
      return Bounded.kept(own);
    }
    return Bounded.atLeast(kind.totalName().replace("Deleted", "") + " retention", asked, own);
  }

  /** Entries of this kind written before the cutoff are deleted; those at or after it are kept. */
  public Instant cutoff(HistoryKind kind, Instant asOf) {
    Duration period = period(kind);
    if (period == null) {
      throw new IllegalStateException("no retention period for " + kind);
    }
    return asOf.minus(period);
  }

  /** Whether an entry of this kind written at {@code writtenAt} has outlived its period. */
  public boolean isExpired(HistoryKind kind, Instant writtenAt, Instant asOf) {
    return writtenAt.isBefore(cutoff(kind, asOf));
  }

  private static Duration pick(Duration override, Duration base) {
    return override != null ? override : base;
  }

  private static void check(String name, Duration period) {
    if (period != null && period.compareTo(MINIMUM_PERIOD) < 0) {
      throw new IllegalArgumentException(
          "retention period " + name + " must be at least 1 day, not " + period);
    }
  }
}
