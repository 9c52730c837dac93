package io.jimflow.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.store.ApprovalWaits.Waiting;
import io.jimflow.testing.SettableClock;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The runs waiting for an approval, as the metrics read them from the run records. */
class ApprovalWaitsTest {

  private static final Instant T0 = Instant.parse("2026-11-28T02:00:00Z");

  private Store store;
  private final SettableClock clock = new SettableClock(T0);
  private final RunRecords runRecords = new RunRecords(clock);
  private final ApprovalWaits waits = new ApprovalWaits(clock);

  @BeforeEach
  void open() {
    store = TestStores.postgres();
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void heldRunsAreCountedByExecutionPerScheduleWithTheOldestWaitUntilTakenOnOrEnded() {
    String nightlyImport = run("nightly/1", "nightly", 0);
    String nightlyExport = run("nightly/1", "nightly", 2);
    String nightlyOther = run("nightly/2", "nightly", 2);
    String hourly = run("hourly/1", "hourly", 2);
    run("weekly/1", "weekly", 0); // runs, never held
    hold(nightlyImport);
    clock.set(T0.plusSeconds(60));
    hold(nightlyExport);
    hold(hourly);
    clock.set(T0.plusSeconds(120));
    hold(nightlyOther);

    assertThat(bySchedule())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "nightly", new Waiting(2, T0),
                "hourly", new Waiting(1, T0.plusSeconds(60))));

    // A decision takes the first on; the other ends (rejected, cancelled, swept).
    store.inTransaction(
        c -> {
          waits.release(c, nightlyImport);
          runRecords.finish(c, hourly, RunStatus.FailedWithError, "rejected", null, null, null);
          return null;
        });
    assertThat(bySchedule())
        .containsExactlyInAnyOrderEntriesOf(Map.of("nightly", new Waiting(2, T0.plusSeconds(60))));

    // An ended run cannot be held again.
    hold(hourly);
    assertThat(bySchedule()).doesNotContainKey("hourly");
  }

  private String run(String execution, String schedule, int step) {
    return store.inTransaction(
        c ->
            runRecords.create(
                c,
                new NewRunRecord(
                    "directory",
                    "export",
                    RunType.Export,
                    new RunOrigin(
                        "Schedule",
                        schedule,
                        schedule,
                        execution,
                        schedule,
                        step,
                        "step " + step))));
  }

  private void hold(String runRecordId) {
    store.inTransaction(
        c -> {
          waits.hold(c, runRecordId);
          return null;
        });
  }

  private Map<String, Waiting> bySchedule() {
    return store.inTransaction(waits::bySchedule);
  }
}
