package io.jimflow.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.store.Store;
import io.jimflow.store.TestStores;
import io.jimflow.testing.SettableClock;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MaintenanceStoreTest {

  private static final Instant T = Instant.parse("2026-06-01T12:00:00Z");
  private static final Initiator HOUSEKEEPING =
      new Initiator(InitiatorType.Schedule, "jimflow-housekeeping", "Housekeeping");
  private static final Initiator ADA = new Initiator(InitiatorType.User, "ada", "Ada Admin");

  private Store store;
  private SettableClock clock;
  private MaintenanceData data;
  private MaintenanceStore maintenance;
  private SystemOperations operations;

  @BeforeEach
  void open() {
    store = TestStores.h2();
    clock = new SettableClock(T);
    data = new MaintenanceData(store, clock);
    maintenance = new MaintenanceStore(store, MaintenanceData.ENGINE, clock);
    operations = new SystemOperations(clock);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void anMvoIsKeptJustBeforeItsGracePeriodEndsAndDeletedFromTheMomentItEnds() {
    String kept = data.person("1", T.plusMillis(1));
    String dueNow = data.person("2", T);
    String overdue = data.person("3", T.minusMillis(1));

    MaintenanceStore.MvoDeletions done =
        maintenance.deleteDueMvos(50, "run-1", HOUSEKEEPING, MaintenanceStore.Progress.NONE);

    assertThat(done.mvosDeleted()).isEqualTo(2);
    assertThat(data.strings("select id from mvo")).containsExactly(kept);
    assertThat(data.strings("select mvo_id from mvo_change where change_type = 'Deleted'"))
        .containsExactlyInAnyOrder(dueNow, overdue);

    clock.advance(Duration.ofMillis(1));
    assertThat(
            maintenance
                .deleteDueMvos(50, "run-2", HOUSEKEEPING, MaintenanceStore.Progress.NONE)
                .mvosDeleted())
        .isEqualTo(1);
    assertThat(data.count("select count(*) from mvo")).isZero();
  }

  @Test
  void oneCycleDeletesAtMostItsCapAndSaysMoreAreDue() {
    for (int i = 0; i < 120; i++) {
      data.person("p" + i, T.minus(Duration.ofDays(1)));
    }

    MaintenanceStore.MvoDeletions first =
        maintenance.deleteDueMvos(50, "run-1", HOUSEKEEPING, MaintenanceStore.Progress.NONE);
    MaintenanceStore.MvoDeletions second =
        maintenance.deleteDueMvos(50, "run-2", HOUSEKEEPING, MaintenanceStore.Progress.NONE);
    MaintenanceStore.MvoDeletions third =
        maintenance.deleteDueMvos(50, "run-3", HOUSEKEEPING, MaintenanceStore.Progress.NONE);

    assertThat(first.mvosDeleted()).isEqualTo(50);
    assertThat(first.capReached()).isTrue();
    assertThat(second.mvosDeleted()).isEqualTo(50);
    assertThat(third.mvosDeleted()).isEqualTo(20);
    assertThat(third.capReached()).isFalse();
    assertThat(data.count("select count(*) from mvo")).isZero();
  }

  @Test
  void deletingAnMvoDeprovisionsItsTargetObjectAndNamesTheOriginalInitiatorInItsHistory() {
    String mvo = data.person("42", null);
    data.joinedCso("hr", "42", mvo);
    long target = data.joinedCso("directory", "42", mvo);

    store.inTransaction(
        c -> {
          operations.hold(c, "hr", SystemOperation.Deleting, "wf-delete-hr");
          return null;
        });
    Map<String, Long> marked =
        maintenance.markOrphanedMvos("hr", ADA, MaintenanceStore.Progress.NONE);
    maintenance.deleteSystem("hr", MaintenanceStore.Progress.NONE);
    assertThat(marked).containsEntry("mvosMarkedForDeletion", 1L);
    assertThat(maintenance.deletionEligibleAt(mvo)).contains(T.plus(MaintenanceData.GRACE));

    clock.set(T.plus(MaintenanceData.GRACE));
    MaintenanceStore.MvoDeletions done =
        maintenance.deleteDueMvos(50, "run-9", HOUSEKEEPING, MaintenanceStore.Progress.NONE);

    assertThat(done.deprovisionExports()).isEqualTo(1);
    assertThat(
            data.strings(
                "select change_type || ':' || status || ':' || cso_id from pending_export"))
        .containsExactly("Delete:Pending:" + target);
    assertThat(
            data.strings(
                "select initiator_type || ':' || initiator_id || ':' || run_record_id from mvo_change"
                    + " where change_type = 'Deleted'"))
        .containsExactly("User:ada:run-9");
  }

  @Test
  void anMvoThatAnotherAuthoritativeSystemStillHoldsIsNotMarked() {
    // The directory is not authoritative for people: losing HR orphans the MVO.
    String orphan = data.person("1", null);
    data.joinedCso("hr", "1", orphan);
    data.joinedCso("directory", "1", orphan);
    String directoryOnly = data.person("2", null);
    data.joinedCso("directory", "2", directoryOnly);

    Map<String, Long> marked =
        maintenance.markOrphanedMvos("directory", ADA, MaintenanceStore.Progress.NONE);

    assertThat(marked).containsEntry("mvosMarkedForDeletion", 1L);
    assertThat(maintenance.deletionEligibleAt(orphan)).isEmpty();
    assertThat(maintenance.deletionEligibleAt(directoryOnly))
        .contains(T.plus(MaintenanceData.GRACE));
  }

  @Test
  void changeHistoryStrictlyOlderThanTheRetentionPeriodIsDeletedAndTheRestKept() {
    long cso = data.joinedCso("hr", "1", null);
    Instant cutoff = T.minus(Duration.ofDays(90));
    data.csoChangeAt(cutoff.minusMillis(1), cso, "hr");
    data.csoChangeAt(cutoff.minusSeconds(3600), cso, "hr");
    data.csoChangeAt(cutoff, cso, "hr");
    data.csoChangeAt(cutoff.plusMillis(1), cso, "hr");

    MaintenanceStore.Purged purged =
        maintenance.purge(
            HistoryKind.CsoChanges, cutoff, new BatchPlan(1), MaintenanceStore.Progress.NONE);

    assertThat(purged.deleted()).isEqualTo(2);
    assertThat(purged.batches()).isEqualTo(3);
    assertThat(data.count("select count(*) from cso_change")).isEqualTo(2);
  }

  @Test
  void endedRunRecordsGoWithTheirItemsInBatchesWhileRecentAndRunningOnesStay() {
    Instant cutoff = T.minus(Duration.ofDays(90));
    String old = data.endedRunAt(cutoff.minusMillis(1), 5);
    String recent = data.endedRunAt(cutoff, 3);
    String running = data.inProgressRun();

    MaintenanceStore.Purged purged =
        maintenance.purge(
            HistoryKind.RunRecords, cutoff, new BatchPlan(2), MaintenanceStore.Progress.NONE);

    assertThat(purged.deleted()).isEqualTo(1);
    assertThat(purged.itemsDeleted()).isEqualTo(5);
    assertThat(data.strings("select id from run_record"))
        .containsExactlyInAnyOrder(recent, running);
    assertThat(data.count("select count(*) from run_item where run_record_id = '" + old + "'"))
        .isZero();
    assertThat(data.count("select count(*) from run_item")).isEqualTo(3);
  }

  @Test
  void clearingASystemDeletesItsObjectsAndPendingExportsAndOnlyIfAskedItsHistory() {
    String mvo = data.person("1", null);
    long kept = data.joinedCso("directory", "1", mvo);
    for (int i = 0; i < 3; i++) {
      long cso = data.joinedCso("hr", "a" + i, null);
      data.csoChangeAt(T, cso, "hr");
    }

    Map<String, Long> first = maintenance.clearObjects("hr", false, MaintenanceStore.Progress.NONE);
    assertThat(first).containsEntry("csosDeleted", 3L).doesNotContainKey("csoChangesDeleted");
    assertThat(data.count("select count(*) from cso_change")).isEqualTo(3);

    Map<String, Long> second = maintenance.clearObjects("hr", true, MaintenanceStore.Progress.NONE);
    assertThat(second).containsEntry("csosDeleted", 0L).containsEntry("csoChangesDeleted", 3L);
    assertThat(data.strings("select cast(id as varchar) from cso"))
        .containsExactly(String.valueOf(kept));
  }

  @Test
  void aHeldSystemRefusesRunProfilesAndOtherOperationsUntilReleased() {
    store.inTransaction(
        c -> {
          operations.hold(c, "hr", SystemOperation.Clearing, "wf-1");
          operations.hold(c, "hr", SystemOperation.Clearing, "wf-1");
          return null;
        });

    assertThatThrownBy(
            () ->
                store.inTransaction(
                    c -> {
                      operations.requireAvailable(c, "hr", "Full Import");
                      return null;
                    }))
        .isInstanceOf(ApplicationFailure.class)
        .hasMessageContaining("connected system 'hr' is being cleared (workflow wf-1")
        .hasMessageContaining("run profile 'Full Import' cannot run");
    assertThatThrownBy(
            () ->
                store.inTransaction(
                    c -> {
                      operations.hold(c, "hr", SystemOperation.Deleting, "wf-2");
                      return null;
                    }))
        .hasMessageContaining("is being cleared");

    store.inTransaction(c -> operations.release(c, "hr", "wf-1"));
    SystemOperation status = store.inTransaction(c -> operations.status(c, "hr"));
    assertThat(status).isEqualTo(SystemOperation.Active);
  }

  @Test
  void aSystemWithARunningRunProfileCannotBeHeld() {
    data.inProgressRun();

    assertThatThrownBy(
            () ->
                store.inTransaction(
                    c -> {
                      operations.hold(c, "hr", SystemOperation.Deleting, "wf-1");
                      return null;
                    }))
        .isInstanceOf(ApplicationFailure.class)
        .hasMessageContaining("run profile 'full-import' is running");
    SystemOperation status = store.inTransaction(c -> operations.status(c, "hr"));
    assertThat(status).isEqualTo(SystemOperation.Active);
  }
}
