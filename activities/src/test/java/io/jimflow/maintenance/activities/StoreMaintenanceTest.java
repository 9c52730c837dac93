package io.jimflow.maintenance.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.maintenance.BatchPlan;
import io.jimflow.maintenance.HistoryKind;
import io.jimflow.maintenance.SystemOperation;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.store.Store;
import io.jimflow.store.SystemHolds;
import io.jimflow.store.TestStores;
import io.jimflow.testing.SettableClock;
import io.temporal.failure.ApplicationFailure;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StoreMaintenanceTest {

  private static final Instant T = Instant.parse("2026-06-01T12:00:00Z");
  private static final Initiator HOUSEKEEPING =
      new Initiator(InitiatorType.Schedule, "jimflow-housekeeping", "Housekeeping");
  private static final Initiator ADA = new Initiator(InitiatorType.User, "ada", "Ada Admin");

  private Store store;
  private SettableClock clock;
  private MaintenanceData data;
  private StoreMaintenance maintenance;
  private SystemOperations operations;

  @BeforeEach
  void open() {
    store = TestStores.postgres();
    clock = new SettableClock(T);
    data = new MaintenanceData(store, clock);
    maintenance = new StoreMaintenance(store, MaintenanceData.ENGINE, clock);
    operations = new SystemOperations(store, clock);
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

    StoreMaintenance.MvoDeletions done =
        maintenance.deleteDueMvos(50, "run-1", HOUSEKEEPING, StoreMaintenance.Progress.NONE);

    assertThat(done.mvosDeleted()).isEqualTo(2);
    assertThat(data.strings("select id from mvo")).containsExactly(kept);
    assertThat(data.strings("select mvo_id from mvo_change where change_type = 'Deleted'"))
        .containsExactlyInAnyOrder(dueNow, overdue);

    clock.advance(Duration.ofMillis(1));
    assertThat(
            maintenance
                .deleteDueMvos(50, "run-2", HOUSEKEEPING, StoreMaintenance.Progress.NONE)
                .mvosDeleted())
        .isEqualTo(1);
    assertThat(data.count("select count(*) from mvo")).isZero();
  }

  @Test
  void oneCycleDeletesAtMostItsCapAndSaysMoreAreDue() {
    for (int i = 0; i < 120; i++) {
      data.person("p" + i, T.minus(Duration.ofDays(1)));
    }

    StoreMaintenance.MvoDeletions first =
        maintenance.deleteDueMvos(50, "run-1", HOUSEKEEPING, StoreMaintenance.Progress.NONE);
    StoreMaintenance.MvoDeletions second =
        maintenance.deleteDueMvos(50, "run-2", HOUSEKEEPING, StoreMaintenance.Progress.NONE);
    StoreMaintenance.MvoDeletions third =
        maintenance.deleteDueMvos(50, "run-3", HOUSEKEEPING, StoreMaintenance.Progress.NONE);

    assertThat(first.mvosDeleted()).isEqualTo(50);
    assertThat(first.capReached()).isTrue();
    assertThat(second.mvosDeleted()).isEqualTo(50);
    assertThat(third.mvosDeleted()).isEqualTo(20);
    assertThat(third.capReached()).isFalse();
    assertThat(data.count("select count(*) from mvo")).isZero();
  }

  @Test
  void mvosDueBeyondTheCapGoOldestDisconnectionFirst() {
    // Disconnected on distinct days, one grace period apart from being due; created newest first,
    // so neither creation order nor id order is the order of their dates.
    String[] byDisconnection = new String[6];
    int[] createdOrder = {4, 1, 5, 0, 3, 2};
    for (int n : createdOrder) {
      Instant disconnected = T.minus(MaintenanceData.GRACE).minus(Duration.ofDays(10 - n));
      byDisconnection[n] = data.person("p" + n, disconnected.plus(MaintenanceData.GRACE));
    }

    StoreMaintenance.MvoDeletions first =
        maintenance.deleteDueMvos(2, "run-1", HOUSEKEEPING, StoreMaintenance.Progress.NONE);

    assertThat(first.capReached()).isTrue();
    assertThat(data.strings("select mvo_id from mvo_change where change_type = 'Deleted'"))
        .containsExactlyInAnyOrder(byDisconnection[0], byDisconnection[1]);

    StoreMaintenance.MvoDeletions second =
        maintenance.deleteDueMvos(3, "run-2", HOUSEKEEPING, StoreMaintenance.Progress.NONE);

    assertThat(second.mvosDeleted()).isEqualTo(3);
    assertThat(data.strings("select id from mvo")).containsExactly(byDisconnection[5]);
  }

  @Test
  void anMvoWhoseDeletionTheStoreRefusesNeverHoldsBackTheOthersAndIsDueAgainNextCycle() {
    List<String> due = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      String mvo = data.person("p" + i, T.minus(Duration.ofDays(6 - i)));
      data.joinedCso("directory", "p" + i, mvo);
      due.add(mvo);
    }
    // Something outside jimflow still points at the oldest due MVO: the store refuses to delete it.
    String blocked = due.get(0);
    execute("create table deletion_blocker (mvo_id varchar(36) not null references mvo (id))");
    execute("insert into deletion_blocker values ('" + blocked + "')");

    StoreMaintenance.MvoDeletions done =
        maintenance.deleteDueMvos(50, "run-1", HOUSEKEEPING, StoreMaintenance.Progress.NONE);

    assertThat(done.mvosDeleted()).isEqualTo(5);
    assertThat(done.deprovisionExports()).isEqualTo(5);
    assertThat(done.refused()).containsOnlyKeys(blocked);
    assertThat(done.capReached()).isFalse();
    assertThat(done.message(50))
        .startsWith("1 MVO deletions refused (they stay due for the next cycle): " + blocked);
    assertThat(data.strings("select id from mvo")).containsExactly(blocked);
    assertThat(data.count("select count(*) from pending_export where change_type = 'Delete'"))
        .isEqualTo(5);
    assertThat(maintenance.anyMvoDue()).isTrue();

    execute("delete from deletion_blocker");
    StoreMaintenance.MvoDeletions next =
        maintenance.deleteDueMvos(50, "run-2", HOUSEKEEPING, StoreMaintenance.Progress.NONE);
    assertThat(next.mvosDeleted()).isEqualTo(1);
    assertThat(next.refused()).isEmpty();
    assertThat(data.count("select count(*) from mvo")).isZero();
    assertThat(data.count("select count(*) from pending_export where change_type = 'Delete'"))
        .isEqualTo(6);
  }

  @Test
  void refusedDeletionsCountTowardsTheCapSoACycleAlwaysEnds() {
    List<String> due = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      due.add(data.person("p" + i, T.minus(Duration.ofDays(4 - i))));
    }
    execute("create table deletion_blocker (mvo_id varchar(36) not null references mvo (id))");
    execute("insert into deletion_blocker values ('" + due.get(0) + "'), ('" + due.get(1) + "')");

    StoreMaintenance.MvoDeletions done =
        maintenance.deleteDueMvos(3, "run-1", HOUSEKEEPING, StoreMaintenance.Progress.NONE);

    assertThat(done.refused()).containsOnlyKeys(due.get(0), due.get(1));
    assertThat(done.mvosDeleted()).isEqualTo(1);
    assertThat(done.capReached()).isTrue();
  }

  private void execute(String sql) {
    store.inTransaction(
        c -> {
          try (Statement statement = c.createStatement()) {
            statement.execute(sql);
          }
          return null;
        });
  }

  @Test
  void deletingAnMvoDeprovisionsItsTargetObjectAndNamesTheOriginalInitiatorInItsHistory() {
    String mvo = data.person("42", null);
    data.joinedCso("hr", "42", mvo);
    long target = data.joinedCso("directory", "42", mvo);

    operations.hold("hr", SystemOperation.Deleting, "wf-delete-hr");
    Map<String, Long> marked =
        maintenance.markOrphanedMvos("hr", ADA, StoreMaintenance.Progress.NONE);
    maintenance.deleteSystem("hr", StoreMaintenance.Progress.NONE);
    assertThat(marked).containsEntry("mvosMarkedForDeletion", 1L);
    assertThat(maintenance.deletionEligibleAt(mvo)).contains(T.plus(MaintenanceData.GRACE));

    clock.set(T.plus(MaintenanceData.GRACE));
    StoreMaintenance.MvoDeletions done =
        maintenance.deleteDueMvos(50, "run-9", HOUSEKEEPING, StoreMaintenance.Progress.NONE);

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
        maintenance.markOrphanedMvos("directory", ADA, StoreMaintenance.Progress.NONE);

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

    StoreMaintenance.Purged purged =
        maintenance.purge(
            HistoryKind.CsoChanges, cutoff, new BatchPlan(1), StoreMaintenance.Progress.NONE);

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

    StoreMaintenance.Purged purged =
        maintenance.purge(
            HistoryKind.RunRecords, cutoff, new BatchPlan(2), StoreMaintenance.Progress.NONE);

    assertThat(purged.deleted()).isEqualTo(1);
    assertThat(purged.itemsDeleted()).isEqualTo(5);
    assertThat(data.strings("select id from run_record"))
        .containsExactlyInAnyOrder(recent, running);
    assertThat(data.count("select count(*) from run_item where run_record_id = '" + old + "'"))
        .isZero();
    assertThat(data.count("select count(*) from run_item")).isEqualTo(3);
  }

  @Test
  void endedExecutionRecordsWithTheirStepsAndEndedMaintenanceRunsGoOnceOlderThanTheCutoff() {
    Instant cutoff = T.minus(Duration.ofDays(90));
    data.executionRecordAt("old-execution", cutoff.minusMillis(1), 3);
    data.executionRecordAt("recent-execution", cutoff, 2);
    data.executionRecordAt("running-execution", null, 1);
    data.maintenanceRunAt("old-housekeeping", cutoff.minusSeconds(3600));
    data.maintenanceRunAt("older-housekeeping", cutoff.minus(Duration.ofDays(30)));
    data.maintenanceRunAt("recent-housekeeping", cutoff);
    data.maintenanceRunAt("running-housekeeping", null);

    StoreMaintenance.Purged purged =
        maintenance.purge(
            HistoryKind.RunRecords, cutoff, new BatchPlan(1), StoreMaintenance.Progress.NONE);

    assertThat(purged.deleted()).as("one execution record and two maintenance runs").isEqualTo(3);
    assertThat(data.strings("select id from execution_record"))
        .containsExactlyInAnyOrder("recent-execution", "running-execution");
    assertThat(data.strings("select distinct execution_id from execution_step"))
        .containsExactlyInAnyOrder("recent-execution", "running-execution");
    assertThat(data.strings("select id from maintenance_run"))
        .containsExactlyInAnyOrder("recent-housekeeping", "running-housekeeping");
  }

  @Test
  void clearingASystemDeletesItsObjectsAndPendingExportsAndOnlyIfAskedItsHistory() {
    String mvo = data.person("1", null);
    long kept = data.joinedCso("directory", "1", mvo);
    for (int i = 0; i < 3; i++) {
      long cso = data.joinedCso("hr", "a" + i, null);
      data.csoChangeAt(T, cso, "hr");
    }

    Map<String, Long> first = maintenance.clearObjects("hr", false, StoreMaintenance.Progress.NONE);
    assertThat(first).containsEntry("csosDeleted", 3L).doesNotContainKey("csoChangesDeleted");
    assertThat(data.count("select count(*) from cso_change")).isEqualTo(3);

    Map<String, Long> second = maintenance.clearObjects("hr", true, StoreMaintenance.Progress.NONE);
    assertThat(second).containsEntry("csosDeleted", 0L).containsEntry("csoChangesDeleted", 3L);
    assertThat(data.strings("select cast(id as varchar) from cso"))
        .containsExactly(String.valueOf(kept));
  }

  @Test
  void aHeldSystemRefusesRunProfilesAndOtherOperationsUntilReleased() {
    operations.hold("hr", SystemOperation.Clearing, "wf-1");
    operations.hold("hr", SystemOperation.Clearing, "wf-1");

    Optional<String> refusal =
        store.inTransaction(c -> new SystemHolds(clock).refusal(c, "hr", "Full Import"));
    assertThat(refusal)
        .hasValueSatisfying(
            message ->
                assertThat(message)
                    .contains("connected system 'hr' is being cleared (workflow wf-1")
                    .contains("run profile 'Full Import' cannot run"));
    assertThatThrownBy(() -> operations.hold("hr", SystemOperation.Deleting, "wf-2"))
        .isInstanceOf(ApplicationFailure.class)
        .hasMessageContaining("is being cleared");

    operations.release("hr", "wf-1");
    SystemOperation status = operations.status("hr");
    assertThat(status).isEqualTo(SystemOperation.Active);
  }

  @Test
  void aSystemWithARunningRunProfileCannotBeHeld() {
    data.inProgressRun();

    assertThatThrownBy(() -> operations.hold("hr", SystemOperation.Deleting, "wf-1"))
        .isInstanceOf(ApplicationFailure.class)
        .hasMessageContaining("run profile 'full-import' is running");
    SystemOperation status = operations.status("hr");
    assertThat(status).isEqualTo(SystemOperation.Active);
  }
}
