package io.jimflow.dataplane;

import static io.jimflow.dataplane.RunProfileExecutorImplTest.CSV_SYSTEMS;
import static io.jimflow.dataplane.RunProfileExecutorImplTest.HEADER;
import static io.jimflow.dataplane.RunProfileExecutorImplTest.attempt;
import static io.jimflow.dataplane.RunProfileExecutorImplTest.person;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.DataPlaneConfigLoader;
import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.secrets.activities.Secrets;
import io.jimflow.store.FailingWrites;
import io.jimflow.store.RunRecord;
import io.jimflow.store.RunRecords;
import io.jimflow.store.Store;
import io.jimflow.store.StoreException;
import io.jimflow.store.TestStores;
import io.jimflow.testing.SettableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A synchronisation written on several store connections at once leaves what one connection leaves:
 * the same metaverse, connector spaces, pending exports, run items and totals, after an
 * uninterrupted run and after a crash in the middle of a page and its retry; an object the store
 * refuses is one error item whose object is kept, as on one connection.
 */
class ParallelSyncTest {

  /** People per HR file: three pages of 2,000. */
  private static final int PEOPLE = 6_000;

  @TempDir Path dir;
  private final List<World> worlds = new ArrayList<>();

  /** A store and a worker on it whose synchronisations use {@code connections} connections. */
  final class World {
    final Store store = TestStores.postgres();
    final SettableClock clock = new SettableClock(Instant.parse("2026-03-01T02:00:00Z"));
    final DataPlaneConfig config = new DataPlaneConfigLoader().load(CSV_SYSTEMS);
    final ProfileRuns runs =
        new ProfileRuns("nightly", new Initiator(InitiatorType.Schedule, "nightly", "Nightly"));
    final int connections;

    World(int connections) {
      this.connections = connections;
      worlds.add(this);
      // The store refuses any MVO whose attributes hold "Refused": one object's write fails.
      store.inTransaction(
          c -> {
            try (Statement statement = c.createStatement()) {
              statement.execute(
                  "alter table mvo add constraint refuses check (attributes not like '%Refused%')");
            }
            return null;
          });
    }

    RunProfileExecutorImpl executor(Store on) {
      return new RunProfileExecutorImpl(
          on, config, dir, clock, Secrets.none(), name -> null, JimflowMetrics.none(), connections);
    }

    RunProfileOutcome execute(String profile) {
      return execute(runs.next("HR System", profile));
    }

    RunProfileOutcome execute(RunProfileRun run) {
      return executor(store).execute(run, new RecordingProgress());
    }

    /** Imports the HR file then synchronises it with {@code profile}. */
    RunProfileOutcome importAndSync(String hr, String importProfile, String syncProfile)
        throws IOException {
      hrFile(hr);
      assertThat(execute(importProfile).status()).isNotEqualTo(StepStatus.FailedWithError);
      return execute(syncProfile);
    }

    long count(String sql) {
      return ProfileRuns.count(store, sql);
    }

    /** What a user sees of the identity data: sorted lines of text, free of generated ids. */
    List<String> seen() {
      List<String> lines = new ArrayList<>();
      lines.addAll(
          rows(
              "select 'mvo ' || m.attributes || ' ' || coalesce(m.deletion_eligible_at::text, '-')"
                  + " || ' ' || coalesce((select string_agg(c.connected_system_id || ':'"
                  + " || c.anchor || ':' || c.join_type, ',' order by c.connected_system_id)"
                  + " from cso c where c.mvo_id = m.id), '-') from mvo m"));
      lines.addAll(
          rows(
              "select 'cso ' || c.connected_system_id || ' ' || c.anchor || ' ' || c.state || ' '"
                  + " || c.sync_pending || ' ' || coalesce(c.join_type, '-') || ' '"
                  + " || coalesce((select m.attributes from mvo m where m.id = c.mvo_id), '-')"
                  + " from cso c"));
      lines.addAll(
          rows(
              "select 'export ' || e.connected_system_id || ' ' || c.anchor || ' ' || e.change_type"
                  + " || ' ' || e.status || ' ' || e.attributes from pending_export e"
                  + " join cso c on c.id = e.cso_id"));
      lines.addAll(
          rows(
              "select 'mvo change ' || change_type || ' ' || count(*) from mvo_change"
                  + " group by change_type"));
      lines.addAll(rows("select 'sync plan ' || count(*) from sync_plan"));
      lines.sort(null);
      return lines;
    }

    /** A run's totals, and its items without their order or generated ids. */
    List<String> items(RunProfileOutcome outcome) {
      String id = outcome.runRecordId();
      RunRecord record = store.inTransaction(c -> new RunRecords(clock).find(c, id)).orElseThrow();
      // Sequence numbers are one per item, none missing, none twice.
      assertThat(
              count("select count(distinct seq) from run_item where run_record_id = '" + id + "'"))
          .isEqualTo(record.itemsWritten())
          .isEqualTo(
              count(
                  "select max(seq) - min(seq) + 1 from run_item where run_record_id = '"
                      + id
                      + "'"));
      List<String> lines = new ArrayList<>();
      lines.add("status " + record.status() + " processed " + record.objectsProcessed());
      lines.add("totals " + new TreeMap<>(record.totals().asMap()));
      lines.addAll(
          rows(
              "select i.object_ref || ' ' || i.change_type || ' ' || coalesce(i.error_type, '-')"
                  + " || ' ' || coalesce(i.error_message, '-') from run_item i"
                  + " where i.run_record_id = '"
                  + id
                  + "'"));
      lines.sort(null);
      return lines;
    }

    private List<String> rows(String sql) {
      return store.inTransaction(
          c -> {
            List<String> found = new ArrayList<>();
            try (Statement statement = c.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
              while (rows.next()) {
                found.add(rows.getString(1));
              }
            }
            return found;
          });
    }
  }

  @BeforeEach
  void noWorldsYet() {
    worlds.clear();
  }

  @AfterEach
  void closeStores() {
    worlds.forEach(w -> w.store.close());
  }

  void hrFile(String rows) throws IOException {
    Files.createDirectories(dir.resolve("data"));
    Files.writeString(dir.resolve("data/hr.csv"), HEADER + rows);
  }

  /**
   * People 1 to {@link #PEOPLE} as the HR file holds them in {@code round}: every tenth a leaver at
   * first, every fourth a contractor; in round 2 every seventh moves department and every eleventh
   * leaves, in round 3 the leavers of round 2 are back (joining their MVOs again). Person 77 holds
   * a title the store refuses in every round.
   */
  static String people(int round) {
    StringBuilder rows = new StringBuilder();
    for (int i = 1; i <= PEOPLE; i++) {
      boolean leaver = i % 10 == 0 || (round == 2 && i % 11 == 0);
      String department = round >= 2 && i % 7 == 0 ? "Sales" : "R&D";
      String row =
          person(
              i,
              department,
              i % 4 == 0 ? "Contractor" : "Employee",
              leaver ? "Terminated" : "Active");
      rows.append(i == 77 ? row.replace("Engineer", "Refused") : row);
    }
    return rows.toString();
  }

  @Test
  void fourConnectionsLeaveWhatOneLeavesThroughFullAndDeltaSynchronisations() throws IOException {
    World one = new World(1);
    World four = new World(4);
    String[][] rounds = {
      {"Full Import", "Full Synchronisation"},
      {"Delta Import", "Delta Synchronisation"},
      {"Delta Import", "Full Synchronisation"}
    };
    for (int round = 1; round <= 3; round++) {
      String hr = people(round);
      RunProfileOutcome byOne = one.importAndSync(hr, rounds[round - 1][0], rounds[round - 1][1]);
      RunProfileOutcome byFour = four.importAndSync(hr, rounds[round - 1][0], rounds[round - 1][1]);

      assertThat(byFour.stats()).as("round %d's totals", round).isEqualTo(byOne.stats());
      assertThat(four.items(byFour)).as("round %d's run items", round).isEqualTo(one.items(byOne));
      assertThat(four.seen()).as("round %d's identity data", round).isEqualTo(one.seen());
    }
    // The rounds did what they say: people left, came back and joined their MVOs again.
    assertThat(one.count("select count(*) from cso where join_type = 'Joined'")).isPositive();
  }

  @Test
  void anObjectTheStoreRefusesIsOneErrorItemAndKeepsItsObjectOnFourConnections()
      throws IOException {
    World four = new World(4);
    RunProfileOutcome sync = four.importAndSync(people(1), "Full Import", "Full Synchronisation");

    assertThat(sync.status()).isEqualTo(StepStatus.CompleteWithError);
    assertThat(sync.stats()).containsEntry("errors", 1L);
    assertThat(four.items(sync))
        .filteredOn(line -> line.contains("StoreRefused"))
        .singleElement()
        .asString()
        .startsWith("E77 NoChange StoreRefused the store refused the synchronisation of E77");
    // E77 is kept, unjoined and still pending; everyone else in scope was projected.
    assertThat(
            four.count(
                "select count(*) from cso where anchor = 'E77' and connected_system_id = 'hr'"
                    + " and mvo_id is null and sync_pending"))
        .isOne();
    assertThat(four.count("select count(*) from mvo")).isEqualTo(PEOPLE * 9 / 10 - 1);
  }

  /**
   * An uninterrupted full synchronisation on one connection, and the same people imported in a
   * world of four connections whose synchronisation is yet to run.
   */
  private final class Reference {
    final World one = new World(1);
    final World four = new World(4);
    final RunProfileOutcome outcome;
    final RunProfileRun sync;

    Reference() throws IOException {
      outcome = one.importAndSync(people(1), "Full Import", "Full Synchronisation");
      hrFile(people(1));
      four.execute("Full Import");
      sync = four.runs.next("HR System", "Full Synchronisation");
    }

    /** Four connections' run ended with what the uninterrupted run on one connection left. */
    void assertSameAsUninterrupted(RunProfileOutcome retried) {
      assertThat(retried.stats()).isEqualTo(outcome.stats());
      assertThat(four.items(retried)).isEqualTo(one.items(outcome));
      assertThat(four.seen()).isEqualTo(one.seen());
    }
  }

  @Test
  void aCrashAfterSomePartitionsOfAPageCommittedIsFinishedByTheRetryAsByOneUninterruptedRun()
      throws IOException {
    Reference ref = new Reference();
    World four = ref.four;
    RunProfileRun sync = ref.sync;
    FailingWrites failing = new FailingWrites(four.store);
    // The connection of the third partition commit of the first page to mark its CSOs done is
    // lost: the others commit, and the page stays announced.
    failing.failWriteOf("delete from sync_plan", 3);

    assertThatThrownBy(() -> four.executor(failing.store()).execute(sync, new RecordingProgress()))
        .isInstanceOf(StoreException.class);
    assertThat(failing.failed()).isTrue();
    long left = four.count("select count(*) from sync_plan");
    assertThat(left).isBetween(1L, 1_999L);
    RunRecord open = inProgress(four, sync);
    assertThat(open.objectsProcessed()).isEqualTo(2_000 - left);
    assertThat(
            four.count("select count(*) from run_item where run_record_id = '" + open.id() + "'"))
        .isEqualTo(open.itemsWritten());

    RunProfileOutcome retried = four.execute(attempt(sync, 2));

    ref.assertSameAsUninterrupted(retried);
  }

  @Test
  void aWorkerLostBetweenAnnouncingAPageAndWritingItLeavesTheWholePageToTheRetry()
      throws IOException {
    Reference ref = new Reference();
    World four = ref.four;
    RunProfileRun sync = ref.sync;
    // Reports: page 1 announced, page 1 written, page 2 announced - and the worker is gone.
    RecordingProgress dying = new RecordingProgress(3, null);

    assertThatThrownBy(() -> four.executor(four.store).execute(sync, dying))
        .isInstanceOf(RecordingProgress.WorkerDied.class);
    assertThat(four.count("select count(*) from sync_plan")).isEqualTo(2_000);
    assertThat(inProgress(four, sync).objectsProcessed()).isEqualTo(2_000);

    RunProfileOutcome retried =
        four.executor(four.store)
            .execute(
                attempt(sync, 2),
                new RecordingProgress(Integer.MAX_VALUE, dying.lastCheckpoint().orElseThrow()));

    ref.assertSameAsUninterrupted(retried);
  }

  @Test
  void aConfiguredConnectionCountIsBoundedToOneToEight() {
    assertThat(PartitionedSync.bounded(Integer.MIN_VALUE)).isEqualTo(1);
    assertThat(PartitionedSync.bounded(0)).isEqualTo(1);
    assertThat(PartitionedSync.bounded(4)).isEqualTo(4);
    assertThat(PartitionedSync.bounded(1_000_000)).isEqualTo(8);
  }

  private static RunRecord inProgress(World world, RunProfileRun run) {
    return world
        .store
        .inTransaction(
            c ->
                new RunRecords(world.clock)
                    .findInProgress(c, run.executionId(), run.stepIndex(), "hr", "full-sync"))
        .orElseThrow();
  }
}
