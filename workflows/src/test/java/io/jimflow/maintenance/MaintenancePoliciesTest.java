package io.jimflow.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MaintenancePoliciesTest {

  private static final Instant NOW = Instant.parse("2026-06-01T02:30:00Z");

  @Test
  void anMvoIsDueFromTheInstantItsGracePeriodEndsButNotAMillisecondBefore() {
    assertThat(MvoDeletionPolicy.isDue(NOW.plusMillis(1), NOW)).isFalse();
    assertThat(MvoDeletionPolicy.isDue(NOW, NOW)).isTrue();
    assertThat(MvoDeletionPolicy.isDue(NOW.minusMillis(1), NOW)).isTrue();
    assertThat(MvoDeletionPolicy.isDue(null, NOW)).isFalse();
  }

  @Test
  void theCycleCapIsTheRequestedOneElseTheConfiguredOneAndMustBeSensible() {
    assertThat(MvoDeletionPolicy.maxPerCycle(null, 50)).isEqualTo(50);
    assertThat(MvoDeletionPolicy.maxPerCycle(7, 50)).isEqualTo(7);
    assertThatThrownBy(() -> MvoDeletionPolicy.maxPerCycle(0, 50))
        .hasMessageContaining("between 1 and 10000, not 0");
  }

  @Test
  void historyExactlyAsOldAsTheRetentionPeriodIsKeptAndAnythingOlderExpires() {
    RetentionPolicy policy = RetentionPolicy.DEFAULT;
    Instant cutoff = NOW.minus(Duration.ofDays(90));

    assertThat(policy.cutoff(HistoryKind.MvoChanges, NOW)).isEqualTo(cutoff);
    assertThat(policy.isExpired(HistoryKind.MvoChanges, cutoff, NOW)).isFalse();
    assertThat(policy.isExpired(HistoryKind.MvoChanges, cutoff.minusMillis(1), NOW)).isTrue();
    assertThat(policy.isExpired(HistoryKind.MvoChanges, cutoff.plusMillis(1), NOW)).isFalse();
  }

  @Test
  void eachKindKeepsItsOwnPeriodAndOverridesReplaceOnlyWhatTheySet() {
    RetentionPolicy configured =
        new RetentionPolicy(Duration.ofDays(30), Duration.ofDays(60), Duration.ofDays(365));
    RetentionPolicy effective =
        configured.overriddenBy(new RetentionPolicy(null, Duration.ofDays(7), null));

    assertThat(effective.cutoff(HistoryKind.CsoChanges, NOW))
        .isEqualTo(NOW.minus(Duration.ofDays(30)));
    assertThat(effective.cutoff(HistoryKind.MvoChanges, NOW))
        .isEqualTo(NOW.minus(Duration.ofDays(7)));
    assertThat(effective.cutoff(HistoryKind.RunRecords, NOW))
        .isEqualTo(NOW.minus(Duration.ofDays(365)));
  }

  @Test
  void aRetentionPeriodUnderOneDayIsRefused() {
    assertThatThrownBy(() -> new RetentionPolicy(Duration.ofHours(23), null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("csoChanges must be at least 1 day");
  }

  @Test
  void onlyAFullBatchMeansAnotherBatchMayFindRows() {
    BatchPlan plan = BatchPlan.of(null, 1000);

    assertThat(plan.moreAfter(1000)).isTrue();
    assertThat(plan.moreAfter(999)).isFalse();
    assertThat(plan.moreAfter(0)).isFalse();
    assertThatThrownBy(() -> BatchPlan.of(0, 1000)).hasMessageContaining("between 1 and 50000");
  }
}
