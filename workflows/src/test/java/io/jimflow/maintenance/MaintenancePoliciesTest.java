package io.jimflow.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.schedule.Bounded;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MaintenancePoliciesTest {

  private static final Instant NOW = Instant.parse("2026-06-01T02:30:00Z");

  @Test
  void anMvoIsDueFromTheInstantItsGracePeriodEndsButNotAMillisecondBefore() {
    assertThat(MvoDeletionPolicy.isDue(NOW.plusMillis(1), NOW)).isFalse();
    assertThat(MvoDeletionPolicy.isDue(NOW, NOW)).isTrue();
    assertThat(MvoDeletionPolicy.isDue(NOW.minusMillis(1), NOW)).isTrue();
    assertThat(MvoDeletionPolicy.isDue(null, NOW)).isFalse();
  }

  @ParameterizedTest(name = "asked {0}, worker {1} -> {2} ({3})")
  @CsvSource(
      nullValues = "null",
      value = {
        "null,  50, 50, null",
        "7,     50, 7,  null",
        "50,    50, 50, null",
        "51,    50, 50, MVOs per cycle 51 clamped to the worker's maximum 50",
        "10000, 50, 50, MVOs per cycle 10000 clamped to the worker's maximum 50",
        "2147483647, 10000, 10000, MVOs per cycle 2147483647 clamped to the worker's maximum 10000"
      })
  void theCycleCapIsTheWorkersOrALowerOneTheInputAsksFor(
      Integer asked, int worker, int cap, String note) {
    Bounded<Integer> bounded = MvoDeletionPolicy.maxPerCycle(asked, worker);

    assertThat(bounded.value()).isEqualTo(cap);
    assertThat(bounded.note()).isEqualTo(note);
  }

  @Test
  void aCycleCapBelowOneIsRefusedAndTheWorkersMustBeSensible() {
    assertThatThrownBy(() -> MvoDeletionPolicy.maxPerCycle(0, 50))
        .hasMessageContaining("must be 1 or more, not 0");
    assertThatThrownBy(() -> MvoDeletionPolicy.maxPerCycle(-5, 50))
        .hasMessageContaining("must be 1 or more, not -5");
    assertThatThrownBy(() -> MvoDeletionPolicy.check(10_001))
        .hasMessageContaining("between 1 and 10000, not 10001");
  }

  @ParameterizedTest(name = "{0}: asked {1}, worker {2} -> {3} ({4})")
  @CsvSource(
      nullValues = "null",
      value = {
        "RunRecords, null,  P90D,  P90D,  null",
        "RunRecords, P365D, P90D,  P365D, null",
        "RunRecords, P90D,  P90D,  P90D,  null",
        "RunRecords, P1D,   P90D,  P90D,  runRecords retention 1d raised to the worker's minimum 90d",
        "CsoChanges, P89D,  P90D,  P90D,  csoChanges retention 89d raised to the worker's minimum 90d",
        "MvoChanges, P2D,   P30D,  P30D,  mvoChanges retention 2d raised to the worker's minimum 30d"
      })
  void aRetentionOverrideMayLengthenAPeriodButNeverShortenTheWorkers(
      HistoryKind kind, Duration asked, Duration worker, Duration period, String note) {
    RetentionPolicy configured = new RetentionPolicy(worker, worker, worker);
    RetentionPolicy overrides =
        asked == null
            ? null
            : new RetentionPolicy(
                kind == HistoryKind.CsoChanges ? asked : null,
                kind == HistoryKind.MvoChanges ? asked : null,
                kind == HistoryKind.RunRecords ? asked : null);

    Bounded<Duration> bounded = configured.boundedPeriod(kind, overrides);

    assertThat(bounded.value()).isEqualTo(period);
    assertThat(bounded.note()).isEqualTo(note);
  }

  @ParameterizedTest(name = "asked {0}, worker {1} -> {2} ({3})")
  @CsvSource(
      nullValues = "null",
      value = {
        "null,  1000, 1000, null",
        "100,   1000, 100,  null",
        "1000,  1000, 1000, null",
        "50000, 1000, 1000, batch size 50000 clamped to the worker's maximum 1000"
      })
  void aBatchSizeIsTheWorkersOrASmallerOneTheInputAsksFor(
      Integer asked, int worker, int size, String note) {
    Bounded<BatchPlan> bounded = BatchPlan.bounded(asked, worker);

    assertThat(bounded.value().batchSize()).isEqualTo(size);
    assertThat(bounded.note()).isEqualTo(note);
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
