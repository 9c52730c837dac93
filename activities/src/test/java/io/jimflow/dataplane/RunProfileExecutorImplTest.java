package io.jimflow.dataplane;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.DataPlaneConfigLoader;
import io.jimflow.maintenance.SystemOperation;
import io.jimflow.maintenance.activities.SystemOperations;
import io.jimflow.schedule.ApprovalDecision;
import io.jimflow.schedule.ChangeSample;
import io.jimflow.schedule.PreviewRequest;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.SchedulePreview;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.steps.AbandonedRun;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.schedule.steps.StepProgress;
import io.jimflow.store.ChangeType;
import io.jimflow.store.FailingWrites;
import io.jimflow.store.RunRecord;
import io.jimflow.store.RunRecords;
import io.jimflow.store.RunRecords.StoredRunItem;
import io.jimflow.store.RunStatus;
import io.jimflow.store.Store;
import io.jimflow.store.StoreException;
import io.jimflow.store.TestStores;
import io.jimflow.store.Total;
import io.jimflow.testing.SettableClock;
import io.temporal.client.ActivityCanceledException;
import io.temporal.failure.ApplicationFailure;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunProfileExecutorImplTest {

  /**
   * The shipped connected systems with the Directory as a CSV file: the data plane's CSV behaviour
   * without a directory server (the shipped Directory is LDAP, which {@link LdapRunsTest} covers).
   */
  static final Path CSV_SYSTEMS = Path.of("src", "test", "resources", "connected-systems-csv.yaml");

  static final String HEADER =
      "employeeId,firstName,lastName,displayName,email,department,jobTitle,location,employeeType,status\n";

  @TempDir Path dir;
  Store store;
  DataPlaneConfig config;
  SettableClock clock = new SettableClock(Instant.parse("2026-03-01T02:00:00Z"));
  RunProfileExecutorImpl executor;
  final ProfileRuns runs =
      new ProfileRuns(
          "nightly-hr-sync",
          new Initiator(InitiatorType.Schedule, "nightly-hr-sync", "Nightly HR Sync"));

  @BeforeEach
  void setUp() {
    store = TestStores.postgres();
    config = new DataPlaneConfigLoader().load(CSV_SYSTEMS);
    executor = new RunProfileExecutorImpl(store, config, dir, clock);
  }

  @AfterEach
  void tearDown() {
    if (store != null) {
      store.close();
    }
  }

  void hrFile(String rows) throws IOException {
    Files.createDirectories(dir.resolve("data"));
    Files.writeString(dir.resolve("data/hr.csv"), HEADER + rows);
  }

  static String person(int n, String department, String type, String status) {
    return "E"
        + n
        + ",First"
        + n
        + ",Last"
        + n
        + ",Person "
        + n
        + ",p"
        + n
        + "@example.org,"
        + department
        + ",Engineer,London,"
        + type
        + ","
        + status
        + "\n";
  }

  RunProfileRun run(String system, String profile) {
    return runs.next(system, profile);
  }

  RunProfileOutcome execute(String system, String profile) {
    return executor.execute(run(system, profile), new RecordingProgress());
  }

  List<StoredRunItem> items(RunProfileOutcome outcome) {
    return ProfileRuns.items(store, clock, outcome);
  }

  long count(String sql) {
    return ProfileRuns.count(store, sql);
  }

  @Test
  void theNightlyHrSyncMovesPeopleFromHrToBothTargetsAndConfirmsThem() throws IOException {
    hrFile(
        person(1, "R&D", "Employee", "Active")
            + person(2, "Sales", "Contractor", "Active")
            + person(3, "R&D", "Employee", "Terminated")
            + "E4,too,few\n"
            + person(5, "Sales", "Employee", "Active"));

    RunProfileOutcome imported = execute("HR System", "Full Import");
    assertThat(imported.status()).isEqualTo(StepStatus.CompleteWithError);
    assertThat(imported.stats())
        .containsEntry("added", 4L)
        .containsEntry("errors", 1L)
        .containsEntry("objectsProcessed", 5L);

    RunProfileOutcome synced = execute("HR System", "Full Synchronisation");
    assertThat(synced.status()).isEqualTo(StepStatus.Complete);
    assertThat(synced.stats())
        .containsEntry("projected", 3L)
        .containsEntry("provisioned", 5L)
        .containsEntry("pendingExports", 5L);

    RunProfileOutcome directoryExport = execute("Directory", "Export");
    RunProfileOutcome badgeExport = execute("Badge System", "Export");
    assertThat(directoryExport.stats()).containsEntry("exported", 3L);
    assertThat(badgeExport.stats()).containsEntry("exported", 2L);
    assertThat(Files.readAllLines(dir.resolve("data/directory.csv")))
        .containsExactly(
            "employeeId,displayName,givenName,surname,mail,department,title",
            "E1,Person 1,First1,Last1,p1@example.org,R&D,Engineer",
            "E2,Person 2,First2,Last2,p2@example.org,Sales,Engineer",
            "E5,Person 5,First5,Last5,p5@example.org,Sales,Engineer");
    assertThat(Files.readAllLines(dir.resolve("data/badges.csv")))
        .hasSize(3)
        .noneMatch(l -> l.startsWith("E2,"));

    RunProfileOutcome confirmed = execute("Directory", "Delta Import");
    assertThat(confirmed.status()).isEqualTo(StepStatus.Complete);
    assertThat(confirmed.stats()).containsEntry("confirmed", 3L);
    assertThat(
            count(
                "select count(*) from pending_export where connected_system_id = 'directory' and status <> 'Confirmed'"))
        .isZero();
    assertThat(
            count(
                "select count(*) from pending_export where connected_system_id = 'badges' and status = 'Exported'"))
        .isEqualTo(2);
  }

  @Test
  void aDeltaRunCarriesOnlyTheChangedPersonThrough() throws IOException {
    hrFile(
        person(1, "R&D", "Employee", "Active")
            + person(2, "R&D", "Employee", "Active")
            + person(3, "R&D", "Employee", "Active"));
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    execute("Directory", "Export");
    execute("Directory", "Delta Import");

    hrFile(
        person(1, "R&D", "Employee", "Active")
            + person(2, "Marketing", "Employee", "Active")
            + person(3, "R&D", "Employee", "Active"));
    RunProfileOutcome delta = execute("HR System", "Delta Import");
    assertThat(delta.stats()).containsEntry("updated", 1L).containsEntry("added", 0L);
    RunProfileOutcome deltaSync = execute("HR System", "Delta Synchronisation");
    // The directory gets a new update; the badge system's create, not exported yet, absorbs the
    // change.
    assertThat(deltaSync.stats())
        .containsEntry("objectsProcessed", 1L)
        .containsEntry("attributeFlows", 1L)
        .containsEntry("pendingExports", 1L);

    RunProfileOutcome export = execute("Directory", "Export");
    assertThat(export.stats()).containsEntry("exported", 1L);
    assertThat(Files.readAllLines(dir.resolve("data/directory.csv")))
        .contains("E2,Person 2,First2,Last2,p2@example.org,Marketing,Engineer");
    assertThat(execute("Badge System", "Export").stats()).containsEntry("exported", 3L);
    assertThat(Files.readAllLines(dir.resolve("data/badges.csv")))
        .contains("E2,Person 2,London,Marketing");
  }

  @Test
  void aConfirmingImportThatFindsAChangedTargetValueQueuesADriftCorrection() throws IOException {
    hrFile(person(1, "R&D", "Employee", "Active"));
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    execute("Directory", "Export");
    execute("Directory", "Delta Import");

    Path directory = dir.resolve("data/directory.csv");
    Files.writeString(
        directory, Files.readString(directory).replace("p1@example.org", "hacked@example.org"));
    RunProfileOutcome confirming = execute("Directory", "Delta Import");
    assertThat(confirming.stats()).containsEntry("driftCorrections", 1L);
    assertThat(items(confirming))
        .extracting(i -> i.item().changeType())
        .contains(ChangeType.DriftCorrection);

    execute("Directory", "Export");
    assertThat(Files.readString(directory)).contains("p1@example.org").doesNotContain("hacked");
    assertThat(execute("Directory", "Delta Import").stats())
        .containsEntry("confirmed", 1L)
        .containsEntry("driftCorrections", 0L);
  }

  @Test
  void aLeaverWhoReturnsWithinTheGracePeriodJoinsTheSameMvoAgainAndIsNotDeleted()
      throws IOException {
    hrFile(person(1, "R&D", "Employee", "Active") + person(2, "R&D", "Employee", "Active"));
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    hrFile(person(1, "R&D", "Employee", "Active"));
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    assertThat(count("select count(*) from mvo where deletion_eligible_at is not null"))
        .isEqualTo(1);

    hrFile(person(1, "R&D", "Employee", "Active") + person(2, "R&D", "Employee", "Active"));
    assertThat(execute("HR System", "Full Import").stats()).containsEntry("added", 1L);
    RunProfileOutcome back = execute("HR System", "Full Synchronisation");

    // The new HR object joins the MVO it left (its directory and badge objects still joined to
    // it), which is no longer due for deletion; nothing is provisioned again.
    assertThat(back.stats())
        .containsEntry("joined", 1L)
        .containsEntry("projected", 0L)
        .containsEntry("provisioned", 0L)
        .containsEntry("errors", 0L);
    assertThat(count("select count(*) from mvo")).isEqualTo(2);
    assertThat(count("select count(*) from mvo where deletion_eligible_at is not null")).isZero();
    assertThat(
            count(
                "select count(*) from cso h join cso d on d.mvo_id = h.mvo_id"
                    + " where h.connected_system_id = 'hr' and h.anchor = 'E2'"
                    + " and d.connected_system_id = 'directory'"))
        .isEqualTo(1);

    clock.advance(Duration.ofDays(8));
    RunProfileOutcome later = execute("HR System", "Full Synchronisation");
    assertThat(later.stats()).containsEntry("deleted", 0L).containsEntry("deprovisioned", 0L);
    assertThat(count("select count(*) from mvo")).isEqualTo(2);
  }

  @Test
  void aLeaverWithAZeroGracePeriodIsDeletedAndDeprovisionedInTheSameSynchronisation()
      throws IOException {
    Path zeroGrace = dir.resolve("connected-systems-zero-grace.yaml");
    String shipped = Files.readString(CSV_SYSTEMS);
    assertThat(shipped).contains("gracePeriod: P7D");
    Files.writeString(zeroGrace, shipped.replace("gracePeriod: P7D", "gracePeriod: PT0S"));
    executor =
        new RunProfileExecutorImpl(store, new DataPlaneConfigLoader().load(zeroGrace), dir, clock);
    hrFile(person(1, "R&D", "Employee", "Active") + person(2, "R&D", "Employee", "Active"));
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    execute("Directory", "Export");
    execute("Directory", "Delta Import");

    hrFile(person(1, "R&D", "Employee", "Terminated") + person(2, "R&D", "Employee", "Active"));
    execute("HR System", "Delta Import");
    RunProfileOutcome sync = execute("HR System", "Delta Synchronisation");

    assertThat(sync.stats())
        .containsEntry("disconnectedOutOfScope", 1L)
        .containsEntry("deleted", 1L)
        .containsEntry("deprovisioned", 2L);
    assertThat(count("select count(*) from mvo")).isEqualTo(1);
    assertThat(count("select count(*) from mvo where deletion_eligible_at is not null")).isZero();
    assertThat(
            count(
                "select count(*) from run_item where run_record_id = '"
                    + sync.runRecordId()
                    + "' and change_type = 'Deleted' and mvo_id is not null"))
        .isEqualTo(1);
    execute("Directory", "Export");
    assertThat(Files.readString(dir.resolve("data/directory.csv")))
        .doesNotContain("E1,")
        .contains("E2,");
  }

  @Test
  void aLeaverIsDisconnectedThenDeletedAndDeprovisionedAfterTheGracePeriod() throws IOException {
    hrFile(person(1, "R&D", "Employee", "Active") + person(2, "R&D", "Employee", "Active"));
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    execute("Directory", "Export");
    execute("Directory", "Delta Import");

    hrFile(person(1, "R&D", "Employee", "Active"));
    assertThat(execute("HR System", "Full Import").stats()).containsEntry("deleted", 1L);
    RunProfileOutcome sync = execute("HR System", "Full Synchronisation");
    assertThat(sync.stats()).containsEntry("disconnected", 1L).containsEntry("deprovisioned", 0L);
    assertThat(count("select count(*) from mvo where deletion_eligible_at is not null"))
        .isEqualTo(1);

    clock.advance(Duration.ofDays(8));
    RunProfileOutcome later = execute("HR System", "Full Synchronisation");
    assertThat(later.stats()).containsEntry("deprovisioned", 2L).containsEntry("deleted", 1L);
    assertThat(count("select count(*) from mvo")).isEqualTo(1);

    execute("Directory", "Export");
    assertThat(Files.readString(dir.resolve("data/directory.csv"))).doesNotContain("E2,");
    RunProfileOutcome confirming = execute("Directory", "Full Import");
    assertThat(confirming.stats()).containsEntry("confirmed", 1L);
    assertThat(count("select count(*) from cso where connected_system_id = 'directory'"))
        .isEqualTo(1);
  }

  @Test
  void rowsWithAnInvalidByteOrANulAreErrorItemsNamingTheirLinesAndEveryOtherRowIsImported()
      throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.writeBytes(
        (HEADER + person(1, "R&D", "Employee", "Active")).getBytes(StandardCharsets.UTF_8));
    // Line 3: "Zoë" as ISO-8859-1 writes it, which is not UTF-8.
    bytes.writeBytes(
        person(2, "R&D", "Employee", "Active")
            .replace("Last2", "Zo#")
            .getBytes(StandardCharsets.UTF_8));
    byte[] written = bytes.toByteArray();
    for (int i = 0; i < written.length; i++) {
      if (written[i] == '#') {
        written[i] = (byte) 0xEB;
      }
    }
    bytes = new ByteArrayOutputStream();
    bytes.writeBytes(written);
    bytes.writeBytes(
        (person(3, "R&D", "Employee", "Active")
                // Line 5: a NUL in the job title.
                + person(4, "R&D", "Employee", "Active").replace("Engineer", "Engi\0neer")
                + person(5, "Sales", "Employee", "Active"))
            .getBytes(StandardCharsets.UTF_8));
    Files.createDirectories(dir.resolve("data"));
    Files.write(dir.resolve("data/hr.csv"), bytes.toByteArray());

    RunProfileOutcome imported = execute("HR System", "Full Import");

    assertThat(imported.status()).isEqualTo(StepStatus.CompleteWithError);
    assertThat(imported.message()).isEqualTo("2 of 5 objects have errors");
    assertThat(imported.stats()).containsEntry("added", 3L).containsEntry("errors", 2L);
    assertThat(items(imported))
        .filteredOn(i -> i.item().isError())
        .extracting(i -> i.item().objectRef() + " " + i.item().errorType())
        .containsExactlyInAnyOrder("hr.csv line 3 InvalidBytes", "hr.csv line 5 NulCharacter");
    assertThat(count("select count(*) from cso")).isEqualTo(3);

    execute("HR System", "Full Synchronisation");
    execute("Directory", "Export");
    assertThat(Files.readString(dir.resolve("data/directory.csv")))
        .contains("Person 1", "Person 3", "Person 5")
        .doesNotContain("\uFFFD", "\0", "Person 2", "Person 4");
    for (String table : List.of("cso", "mvo", "pending_export")) {
      assertThat(count("select count(*) from " + table + " where attributes like '%\uFFFD%'"))
          .as(table)
          .isZero();
    }
    assertThat(
            count(
                "select count(*) from run_item where error_message like '%\uFFFD%'"
                    + " or object_ref like '%\uFFFD%'"))
        .isZero();

    // Once imported, a person whose row goes bad is kept as they were, never taken for absent.
    byte[] bad = Files.readAllBytes(dir.resolve("data/hr.csv"));
    StringBuilder good = new StringBuilder();
    for (int i = 1; i <= 5; i++) {
      good.append(person(i, i == 5 ? "Sales" : "R&D", "Employee", "Active"));
    }
    hrFile(good.toString());
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    Files.write(dir.resolve("data/hr.csv"), bad);
    RunProfileOutcome again = execute("HR System", "Full Import");
    // Its only run items are the two errors; the three other people were handled (unchanged).
    assertThat(again.status()).isEqualTo(StepStatus.CompleteWithError);
    assertThat(again.message()).isEqualTo("2 of 5 objects have errors");
    assertThat(again.stats()).containsEntry("errors", 2L).containsEntry("deleted", 0L);
    assertThat(execute("HR System", "Full Synchronisation").stats())
        .containsEntry("disconnected", 0L);
    assertThat(
            count("select count(*) from cso where connected_system_id = 'hr' and state = 'Normal'"))
        .isEqualTo(5);
  }

  @Test
  void aRunStopsFailedWithErrorAfterItsProfilesStopAfterErrors() throws IOException {
    Path systems = dir.resolve("systems.yaml");
    Files.writeString(
        systems,
        Files.readString(CSV_SYSTEMS)
            .replace(
                "{id: full-import, name: Full Import, runType: FullImport, file: data/hr.csv,"
                    + " pageSize: 2000}",
                "{id: full-import, name: Full Import, runType: FullImport, file: data/hr.csv,"
                    + " pageSize: 2, stopAfterErrors: 3}"));
    executor =
        new RunProfileExecutorImpl(store, new DataPlaneConfigLoader().load(systems), dir, clock);
    StringBuilder rows = new StringBuilder();
    for (int i = 1; i <= 10; i++) {
      rows.append(person(i, "R&D", "Employee", "Active")).append("E-BAD").append(i).append(",x\n");
    }
    hrFile(rows.toString());

    RunProfileOutcome imported = execute("HR System", "Full Import");

    assertThat(imported.status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(imported.message())
        .isEqualTo(
            "stopped after 3 errors (the run profile's stopAfterErrors is 3); the source or"
                + " target looks broken as a whole");
    // Pages of two rows: the third page brought the third error.
    assertThat(imported.stats()).containsEntry("added", 3L).containsEntry("errors", 3L);
  }

  @Test
  void anMvoWhoseDeletionTheStoreRefusesIsOneErrorItemAndEveryOtherDueMvoIsDeletedAndDeprovisioned()
      throws IOException {
    StringBuilder everyone = new StringBuilder();
    for (int i = 1; i <= 4; i++) {
      everyone.append(person(i, "R&D", "Employee", "Active"));
    }
    hrFile(everyone.toString());
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    execute("Directory", "Export");
    execute("Directory", "Delta Import");
    String blocked =
        store.inTransaction(
            c -> {
              try (Statement statement = c.createStatement();
                  ResultSet rows =
                      statement.executeQuery(
                          "select mvo_id from cso where connected_system_id = 'hr'"
                              + " and anchor = 'E3'")) {
                rows.next();
                return rows.getString(1);
              }
            });

    hrFile(person(1, "R&D", "Employee", "Active"));
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    // Something outside jimflow still points at E3's MVO: the store refuses to delete it.
    execute("create table deletion_blocker (mvo_id varchar(36) not null references mvo (id))");
    execute("insert into deletion_blocker values ('" + blocked + "')");

    clock.advance(Duration.ofDays(8));
    RunProfileOutcome sync = execute("HR System", "Full Synchronisation");

    assertThat(sync.status()).isEqualTo(StepStatus.CompleteWithError);
    // E2 and E4 deleted, each deprovisioned from the Directory and the Badge System.
    assertThat(sync.stats())
        .containsEntry("deleted", 2L)
        .containsEntry("deprovisioned", 4L)
        .containsEntry("errors", 1L);
    assertThat(items(sync))
        .filteredOn(i -> i.item().isError())
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.item().objectRef()).isEqualTo("Person 3");
              assertThat(i.item().errorType()).isEqualTo("DeletionRefused");
              assertThat(i.item().errorMessage())
                  .contains(blocked, "it stays due and the next run tries it again");
            });
    assertThat(count("select count(*) from mvo")).isEqualTo(2);
    RunProfileOutcome export = execute("Directory", "Export");
    assertThat(export.stats()).containsEntry("exported", 2L);
    assertThat(Files.readString(dir.resolve("data/directory.csv")))
        .contains("E1,", "E3,")
        .doesNotContain("E2,", "E4,");

    // Still refused: due again, one error again, nothing else to do.
    RunProfileOutcome again = execute("HR System", "Full Synchronisation");
    assertThat(again.stats()).containsEntry("errors", 1L).containsEntry("deleted", 0L);

    execute("drop table deletion_blocker");
    RunProfileOutcome fixed = execute("HR System", "Full Synchronisation");
    assertThat(fixed.status()).isEqualTo(StepStatus.Complete);
    assertThat(fixed.stats()).containsEntry("deleted", 1L).containsEntry("deprovisioned", 2L);
    assertThat(count("select count(*) from mvo")).isEqualTo(1);
  }

  @Test
  void anEmptiedHrFileHoldsTheFullImportUntilApprovedAndARejectionMarksNothing()
      throws IOException {
    StringBuilder everyone = new StringBuilder();
    for (int i = 1; i <= 20; i++) {
      everyone.append(person(i, "R&D", "Employee", "Active"));
    }
    hrFile(everyone.toString());
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");

    hrFile("");
    RunProfileRun held = run("HR System", "Full Import");
    RunProfileOutcome awaiting = executor.execute(held, new RecordingProgress());

    assertThat(awaiting.status()).isEqualTo(StepStatus.AwaitingApproval);
    assertThat(awaiting.message())
        .isEqualTo(
            "held: the full import would mark absent 20 of 20 objects of HR System (100%), above"
                + " the threshold of 500 or 10%; e.g. E1, E2, E3, E4, E5 and 15 more; nothing was"
                + " marked absent. Approve or reject it: jimflow executions approve|reject exec-1"
                + " --step 'HR System - Full Import' --reason TEXT");
    assertThat(awaiting.stats()).containsEntry("approvalTimeoutSeconds", 86_400L);
    assertThat(inProgress(held, "full-import").id()).isEqualTo(awaiting.runRecordId());
    assertThat(count("select count(*) from cso where state = 'Obsolete'")).isZero();

    RunProfileOutcome rejected =
        executor.execute(
            decided(held, new ApprovalDecision(held.stepName(), false, "ada", "truncated file")),
            new RecordingProgress());
    assertThat(rejected.runRecordId()).isEqualTo(awaiting.runRecordId());
    assertThat(rejected.status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(rejected.message())
        .isEqualTo(
            "rejected by ada: truncated file; nothing was sent or marked, and what was pending"
                + " stays pending");
    assertThat(count("select count(*) from cso where state = 'Obsolete'")).isZero();
    assertThat(execute("HR System", "Full Synchronisation").stats())
        .containsEntry("disconnected", 0L);

    // The next run holds again; approved, it marks everyone absent.
    RunProfileRun again = run("HR System", "Full Import");
    assertThat(executor.execute(again, new RecordingProgress()).status())
        .isEqualTo(StepStatus.AwaitingApproval);
    RunProfileOutcome approved =
        executor.execute(
            decided(again, new ApprovalDecision(again.stepName(), true, "bob", "HR closed down")),
            new RecordingProgress());
    assertThat(approved.status()).isEqualTo(StepStatus.Complete);
    assertThat(approved.message()).isEqualTo("approved by bob: HR closed down");
    assertThat(approved.stats()).containsEntry("deleted", 20L);
    RunRecord record =
        store
            .inTransaction(c -> new RunRecords(clock).find(c, approved.runRecordId()))
            .orElseThrow();
    assertThat(record.message()).isEqualTo("approved by bob: HR closed down");

    // Eleven of twenty people leave at once: above 10% too.
    hrFile(everyone.toString());
    execute("HR System", "Full Import");
    StringBuilder nine = new StringBuilder();
    for (int i = 1; i <= 9; i++) {
      nine.append(person(i, "R&D", "Employee", "Active"));
    }
    hrFile(nine.toString());
    assertThat(execute("HR System", "Full Import").message())
        .startsWith("held: the full import would mark absent 11 of 20");
  }

  @Test
  void anExportAboveItsUpdateThresholdSendsNothingUntilApprovedAndItsExportsStayPending()
      throws IOException {
    Path systems = dir.resolve("systems.yaml");
    Files.writeString(
        systems,
        Files.readString(CSV_SYSTEMS)
            .replace(
                "  - id: directory\n    name: Directory\n",
                "  - id: directory\n    name: Directory\n"
                    + "    thresholds: {exportUpdates: {count: 3, share: 100%}}\n"));
    executor =
        new RunProfileExecutorImpl(store, new DataPlaneConfigLoader().load(systems), dir, clock);
    StringBuilder everyone = new StringBuilder();
    for (int i = 1; i <= 5; i++) {
      everyone.append(person(i, "R&D", "Employee", "Active"));
    }
    hrFile(everyone.toString());
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    assertThat(execute("Directory", "Export").status()).isEqualTo(StepStatus.Complete);
    execute("Directory", "Delta Import");
    String before = Files.readString(dir.resolve("data/directory.csv"));

    hrFile(everyone.toString().replace("Engineer", "Architect"));
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    RunProfileRun export = run("Directory", "Export");
    RunProfileOutcome held = executor.execute(export, new RecordingProgress());

    assertThat(held.status()).isEqualTo(StepStatus.AwaitingApproval);
    assertThat(held.message())
        .startsWith(
            "held: the export would update 5 of 5 objects of Directory (100%), above the threshold"
                + " of 3 or 100%; e.g. E1, E2, E3, E4, E5; nothing was sent and the exports stay"
                + " pending.");
    // A few of the objects it would change, with their changed attributes before and after.
    assertThat(held.message().lines().skip(1))
        .containsExactly(
            "  - Update E1: title 'Engineer' -> 'Architect'",
            "  - Update E2: title 'Engineer' -> 'Architect'",
            "  - Update E3: title 'Engineer' -> 'Architect'",
            "  - Update E4: title 'Engineer' -> 'Architect'",
            "  - Update E5: title 'Engineer' -> 'Architect'");
    assertThat(Files.readString(dir.resolve("data/directory.csv"))).isEqualTo(before);
    String pending =
        "select count(*) from pending_export where connected_system_id = 'directory'"
            + " and status = 'Pending'";
    assertThat(count(pending)).isEqualTo(5);

    RunProfileOutcome approved =
        executor.execute(
            decided(export, new ApprovalDecision(export.stepName(), true, "ada", "new titles")),
            new RecordingProgress());
    assertThat(approved.status()).isEqualTo(StepStatus.Complete);
    assertThat(approved.stats()).containsEntry("exported", 5L);
    assertThat(count(pending)).isZero();
    assertThat(Files.readString(dir.resolve("data/directory.csv")))
        .contains("Architect")
        .doesNotContain("Engineer");
  }

  static RunProfileRun decided(RunProfileRun run, ApprovalDecision decision) {
    return new RunProfileRun(
        run.connectedSystem(),
        run.runProfile(),
        run.executionId(),
        run.scheduleId(),
        run.stepIndex(),
        run.stepName(),
        run.initiator(),
        1,
        decision);
  }

  @Test
  void aPreviewChangesNothingAndReportsWhatTheRealRunThenDoes() throws IOException {
    StringBuilder five = new StringBuilder();
    for (int i = 1; i <= 5; i++) {
      five.append(person(i, "R&D", "Employee", "Active"));
    }
    hrFile(five.toString());
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    execute("Directory", "Export");
    execute("Badge System", "Export");
    execute("Directory", "Delta Import");
    execute("Badge System", "Delta Import");
    // Three new titles, a new person, a leaver.
    StringBuilder changed = new StringBuilder();
    for (int i = 1; i <= 4; i++) {
      String row = person(i, "R&D", "Employee", "Active");
      changed.append(i <= 3 ? row.replace("Engineer", "Architect") : row);
    }
    changed.append(person(6, "Sales", "Employee", "Active"));
    hrFile(changed.toString());
    String state =
        "select 'cso', connected_system_id, anchor, content_hash, state, sync_pending, last_seen_run"
            + " from cso union all select 'mvo', id, attributes, cast(deletion_eligible_at as"
            + " varchar), '', false, '' from mvo union all select 'export', cast(id as varchar),"
            + " status, attributes, change_type, drift_correction, '' from pending_export"
            + " union all select 'run', id, status, coalesce(watermark, ''), '', false, '' from"
            + " run_record union all select 'change', cast(count(*) as varchar), '', '', '', false,"
            + " '' from cso_change union all select 'mvo-change', cast(count(*) as varchar), '', '',"
            + " '', false, '' from mvo_change";
    List<String> before = rows(state);
    String directory = Files.readString(dir.resolve("data/directory.csv"));

    SchedulePreview preview =
        executor.preview(
            new PreviewRequest(
                aSchedule("nightly-hr-sync")
                    .with(
                        aStep(0, "HR System - Full Import").runProfile("HR System", "Full Import"),
                        aStep(1, "HR System - Full Sync")
                            .runProfile("HR System", "Full Synchronisation"),
                        aStep(2, "Directory - Export").runProfile("Directory", "Export"))
                    .definition(),
                runs.initiator()),
            new RecordingProgress());

    assertThat(rows(state)).containsExactlyInAnyOrderElementsOf(before);
    assertThat(Files.readString(dir.resolve("data/directory.csv"))).isEqualTo(directory);
    assertThat(preview.skipped()).containsExactly("Directory - Export");
    assertThat(preview.steps())
        .extracting(SchedulePreview.StepPreview::status)
        .containsExactly(StepStatus.Complete, StepStatus.Complete);
    // No person approved anything: a step's message does not say the preview went past thresholds.
    assertThat(preview.steps())
        .extracting(SchedulePreview.StepPreview::message)
        .containsOnlyNulls();
    SchedulePreview.SystemPreview hr = system(preview, "HR System");
    SchedulePreview.SystemPreview directoryPreview = system(preview, "Directory");
    assertThat(hr.imported()).isEqualTo(new SchedulePreview.Counts(1, 3, 1));
    assertThat(directoryPreview.exports()).isEqualTo(new SchedulePreview.Counts(1, 3, 0));
    assertThat(directoryPreview.sample()).contains("Create E6", "Update E1", "Update E3");
    assertThat(directoryPreview.samples())
        .extracting(ChangeSample::describe)
        .contains(
            "Update E1: title 'Engineer' -> 'Architect'",
            "Update E3: title 'Engineer' -> 'Architect'",
            "Create E6: department (none) -> 'Sales'; displayName (none) -> 'Person 6';"
                + " employeeId (none) -> 'E6'; givenName (none) -> 'First6';"
                + " mail (none) -> 'p6@example.org'; surname (none) -> 'Last6';"
                + " title (none) -> 'Engineer'");
    assertThat(directoryPreview.holds()).isEmpty();
    // What HR's import would change, with the values the store held before the preview.
    assertThat(hr.importSamples())
        .extracting(ChangeSample::describe)
        .contains(
            "Update E1: jobTitle 'Engineer' -> 'Architect'",
            "Update E3: jobTitle 'Engineer' -> 'Architect'",
            "Delete E5")
        .anyMatch(d -> d.startsWith("Add E6: department (none) -> 'Sales'; displayName (none)"))
        // status is read by no sync rule's flow: not shown.
        .noneMatch(d -> d.contains("status"));

    // The real run does what the preview said.
    RunProfileOutcome imported = execute("HR System", "Full Import");
    assertThat(imported.stats())
        .containsEntry("added", hr.imported().adds())
        .containsEntry("updated", hr.imported().updates())
        .containsEntry("deleted", hr.imported().deletes());
    execute("HR System", "Full Synchronisation");
    RunProfileOutcome exported = execute("Directory", "Export");
    SchedulePreview.Counts sent = directoryPreview.exports();
    assertThat(exported.stats())
        .containsEntry("exported", sent.adds() + sent.updates() + sent.deletes());
    assertThat(Files.readString(dir.resolve("data/directory.csv")))
        .contains("E6,")
        .containsPattern("E1,.*Architect");
  }

  @Test
  void aPreviewSaysWhichThresholdsWouldHold() throws IOException {
    StringBuilder everyone = new StringBuilder();
    for (int i = 1; i <= 20; i++) {
      everyone.append(person(i, "R&D", "Employee", "Active"));
    }
    hrFile(everyone.toString());
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    hrFile("");

    SchedulePreview preview =
        executor.preview(
            new PreviewRequest(
                aSchedule("nightly-hr-sync")
                    .with(aStep(0, "Import").runProfile("HR System", "Full Import"))
                    .definition(),
                runs.initiator()),
            new RecordingProgress());

    assertThat(system(preview, "HR System").holds())
        .containsExactly(
            "Import would mark absent 20 of 20 objects of HR System (100%), above the threshold of"
                + " 500 or 10%");
    assertThat(count("select count(*) from cso where state = 'Obsolete'")).isZero();
  }

  static SchedulePreview.SystemPreview system(SchedulePreview preview, String name) {
    return preview.systems().stream()
        .filter(s -> s.system().equals(name))
        .findFirst()
        .orElseThrow();
  }

  List<String> rows(String sql) {
    return store.inTransaction(
        c -> {
          List<String> rows = new ArrayList<>();
          try (Statement statement = c.createStatement();
              ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
              StringBuilder row = new StringBuilder();
              for (int i = 1; i <= columns; i++) {
                row.append(result.getString(i)).append('|');
              }
              rows.add(row.toString());
            }
          }
          return rows;
        });
  }

  void execute(String sql) {
    store.inTransaction(
        c -> {
          try (Statement statement = c.createStatement()) {
            statement.execute(sql);
          }
          return null;
        });
  }

  @Test
  void aRetriedImportResumesAfterTheLastCommittedPageAndAppliesNoPageTwice() throws IOException {
    StringBuilder rows = new StringBuilder();
    for (int i = 1; i <= 9_000; i++) {
      rows.append(person(i, "R&D", "Employee", "Active"));
    }
    rows.append(person(17, "R&D", "Employee", "Active"));
    hrFile(rows.toString());
    RunProfileRun first = run("HR System", "Full Import");

    RecordingProgress dying = RecordingProgress.dyingAfterCheckpoints(2);
    assertThatThrownBy(() -> executor.execute(first, dying))
        .isInstanceOf(RecordingProgress.WorkerDied.class);
    RunRecord open = inProgress(first, "full-import");
    assertThat(open.checkpoint()).isEqualTo("rows:4000");
    assertThat(count("select count(*) from cso")).isEqualTo(4000);

    RunProfileRun retry = attempt(first, 2);
    RecordingProgress resumed =
        new RecordingProgress(Integer.MAX_VALUE, dying.lastCheckpoint().orElseThrow());
    RunProfileOutcome outcome = executor.execute(retry, resumed);

    assertThat(outcome.runRecordId()).isEqualTo(open.id());
    assertThat(outcome.status()).isEqualTo(StepStatus.CompleteWithError);
    assertThat(outcome.stats())
        .containsEntry("added", 9_000L)
        .containsEntry("errors", 1L)
        .containsEntry("objectsProcessed", 9_001L);
    assertThat(count("select count(*) from cso")).isEqualTo(9_000);
    assertThat(count("select count(*) from run_item")).isEqualTo(9_001);
    assertThat(
            count(
                "select count(*) from (select object_ref, change_type from run_item group by object_ref, change_type having count(*) > 1) d"))
        .isZero();
    // A heartbeat at what the first attempt committed, then the retry's first page.
    assertThat(resumed.processed).startsWith(4_000L, 6_000L);

    RunProfileOutcome again = executor.execute(attempt(retry, 3), new RecordingProgress());
    assertThat(again.runRecordId()).isEqualTo(outcome.runRecordId());
    assertThat(count("select count(*) from run_record")).isEqualTo(1);
  }

  /**
   * HR people 1 to {@code count} imported, to be synchronised in pages of 2,000: every tenth a
   * leaver (out of scope), every fourth a contractor (no badge).
   */
  void importPeople(int count) throws IOException {
    StringBuilder rows = new StringBuilder();
    for (int i = 1; i <= count; i++) {
      rows.append(
          person(
              i,
              "R&D",
              i % 4 == 0 ? "Contractor" : "Employee",
              i % 10 == 0 ? "Terminated" : "Active"));
    }
    hrFile(rows.toString());
    execute("HR System", "Full Import");
  }

  /**
   * Imports persons 1-3,000, then writes an HR file of persons 2,001-6,000 (1,000 of them changed,
   * 3,000 new): persons 1-2,000 are no longer in it, so a full import that ran on would mark them
   * absent.
   */
  void importPeopleThenDropTheFirstTwoThousand() throws IOException {
    importPeople(3_000);
    StringBuilder rows = new StringBuilder();
    for (int i = 2_001; i <= 6_000; i++) {
      rows.append(person(i, "Sales", "Employee", "Active"));
    }
    hrFile(rows.toString());
  }

  /** The same step's next attempt, as Temporal retries it. */
  static RunProfileRun attempt(RunProfileRun run, int attempt) {
    return new RunProfileRun(
        run.connectedSystem(),
        run.runProfile(),
        run.executionId(),
        run.scheduleId(),
        run.stepIndex(),
        run.stepName(),
        run.initiator(),
        attempt);
  }

  /** The run record of an HR step's run profile that a lost attempt left in progress. */
  RunRecord inProgress(RunProfileRun run, String profileId) {
    return inProgress(run, "hr", profileId);
  }

  /** Only the first two pages of the synchronisation are in the store, each once. */
  void assertTwoPagesSynchronised(RunProfileRun sync) {
    RunRecord open = inProgress(sync, "full-sync");
    assertThat(open.objectsProcessed()).isEqualTo(4_000);
    // Persons 1-4,000: 3,600 in scope, 2,800 of them employees with a badge.
    assertThat(count("select count(*) from mvo")).isEqualTo(3_600);
    assertThat(
            count(
                "select count(*) from cso where mvo_id is not null and connected_system_id = 'hr'"))
        .isEqualTo(3_600);
    assertThat(count("select count(*) from pending_export")).isEqualTo(3_600 + 2_800);
    assertThat(count("select count(*) from run_item where run_record_id = '" + open.id() + "'"))
        .isEqualTo(open.itemsWritten())
        .isEqualTo(3_600 + 3_600 + 2_800);
  }

  /** What one uninterrupted Full Synchronisation of 9,000 {@link #importPeople} leaves. */
  void assertSynchronisedAsByOneUninterruptedRun(RunProfileOutcome outcome) {
    assertThat(outcome.status()).isEqualTo(StepStatus.Complete);
    assertThat(outcome.stats())
        .containsEntry("objectsProcessed", 9_000L)
        .containsEntry("projected", 8_100L)
        .containsEntry("provisioned", 8_100L + 6_300)
        .containsEntry("pendingExports", 8_100L + 6_300)
        .containsEntry("errors", 0L);
    assertThat(count("select count(*) from mvo")).isEqualTo(8_100);
    assertThat(count("select count(*) from mvo_key")).isEqualTo(8_100);
    assertThat(count("select count(*) from mvo_change")).isEqualTo(8_100);
    assertThat(
            count(
                "select count(distinct mvo_id) from cso where connected_system_id = 'hr'"
                    + " and mvo_id in (select id from mvo)"))
        .isEqualTo(8_100);
    assertThat(
            count(
                "select count(*) from cso where connected_system_id = 'hr' and sync_pending = true"))
        .isZero();
    assertThat(count("select count(*) from cso where connected_system_id = 'directory'"))
        .isEqualTo(8_100);
    assertThat(count("select count(*) from cso where connected_system_id = 'badges'"))
        .isEqualTo(6_300);
    assertThat(count("select count(*) from pending_export where connected_system_id = 'directory'"))
        .isEqualTo(8_100);
    assertThat(count("select count(*) from pending_export where connected_system_id = 'badges'"))
        .isEqualTo(6_300);
    assertThat(
            count(
                "select count(*) from pending_export where mvo_id not in (select id from mvo)"
                    + " or cso_id not in (select id from cso where mvo_id is not null)"))
        .isZero();
    assertThat(
            count(
                "select count(*) from run_item where run_record_id = '"
                    + outcome.runRecordId()
                    + "'"))
        .isEqualTo(8_100 + 14_400);
    assertThat(
            count(
                "select count(*) from (select cso_id, change_type from run_item"
                    + " group by cso_id, change_type having count(*) > 1) d"))
        .isZero();
  }

  @Test
  void aRetriedSynchronisationResumesAfterTheLastCommittedPageAndAppliesNoPageTwice()
      throws IOException {
    importPeople(9_000);
    RunProfileRun sync = run("HR System", "Full Synchronisation");

    RecordingProgress dying = new RecordingProgress(2, null);
    assertThatThrownBy(() -> executor.execute(sync, dying))
        .isInstanceOf(RecordingProgress.WorkerDied.class);
    assertTwoPagesSynchronised(sync);

    RecordingProgress resumed =
        new RecordingProgress(Integer.MAX_VALUE, dying.lastCheckpoint().orElseThrow());
    RunProfileOutcome outcome = executor.execute(attempt(sync, 2), resumed);

    assertThat(resumed.processed.get(0)).isEqualTo(6_000);
    assertSynchronisedAsByOneUninterruptedRun(outcome);
  }

  @Test
  void aSynchronisationPageWhoseConnectionFailsMidPageIsRolledBackAndTheRetryAppliesItOnce()
      throws IOException {
    importPeople(9_000);
    RunProfileRun sync = run("HR System", "Full Synchronisation");
    FailingWrites failing = new FailingWrites(store);
    RunProfileExecutorImpl failingExecutor =
        new RunProfileExecutorImpl(failing.store(), config, dir, clock);
    RecordingProgress reports = new RecordingProgress();
    // After two pages have committed, the third write of the third page loses the connection,
    // after its MVOs are written.
    StepProgress losesPageThree =
        new StepProgress() {
          @Override
          public void report(long processed, long total, String checkpoint) {
            reports.report(processed, total, checkpoint);
            if (reports.processed.size() == 2) {
              failing.failWrite(3);
            }
          }

          @Override
          public Optional<String> lastCheckpoint() {
            return reports.lastCheckpoint();
          }
        };

    assertThatThrownBy(() -> failingExecutor.execute(sync, losesPageThree))
        .isInstanceOf(StoreException.class);
    assertThat(failing.failed()).isTrue();
    assertTwoPagesSynchronised(sync);

    RunProfileOutcome outcome =
        executor.execute(
            attempt(sync, 2),
            new RecordingProgress(Integer.MAX_VALUE, reports.lastCheckpoint().orElseThrow()));

    assertSynchronisedAsByOneUninterruptedRun(outcome);
  }

  @Test
  void aRetriedExportContinuesMarkingAfterTheLastCommittedPageAndWritesTheFileOnce()
      throws IOException {
    // The Directory's export in pages of 500.
    String systems = Files.readString(CSV_SYSTEMS);
    String export = "{id: export, name: Export, runType: Export, file: data/directory.csv";
    assertThat(systems).contains(export);
    Path paged = dir.resolve("connected-systems.yaml");
    Files.writeString(paged, systems.replace(export, export + ", pageSize: 500"));
    executor =
        new RunProfileExecutorImpl(store, new DataPlaneConfigLoader().load(paged), dir, clock);
    // Contractors: no badges to provision, only the Directory's 5,000 exports.
    StringBuilder rows = new StringBuilder();
    for (int i = 1; i <= 5_000; i++) {
      rows.append(person(i, "R&D", "Contractor", "Active"));
    }
    hrFile(rows.toString());
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    // The file already holds people 5,000 down to 4,001 (outdated), someone else, and a bad row.
    StringBuilder old = new StringBuilder(DIRECTORY_HEADER + "\n");
    for (int i = 5_000; i > 4_000; i--) {
      old.append("E").append(i).append(",Old ").append(i).append(",,,,Old,Old\n");
      if (i == 4_500) {
        old.append("X1,Someone Else,Someone,Else,x1@example.org,Ops,Clerk\nE9999,too,few\n");
      }
    }
    Path file = dir.resolve("data/directory.csv");
    Files.writeString(file, old.toString());
    // What applying every export at once gives: the file's rows in their order, then the others in
    // the order of their first export.
    List<String> expected = new ArrayList<>();
    expected.add(DIRECTORY_HEADER);
    for (int i = 5_000; i > 4_000; i--) {
      expected.add(directoryRow(i));
      if (i == 4_500) {
        expected.add("X1,Someone Else,Someone,Else,x1@example.org,Ops,Clerk");
      }
    }
    for (String anchor : directoryAnchorsInExportOrder()) {
      if (Integer.parseInt(anchor.substring(1)) <= 4_000) {
        expected.add(directoryRow(Integer.parseInt(anchor.substring(1))));
      }
    }
    RunProfileRun first = run("Directory", "Export");

    RecordingProgress dying = RecordingProgress.dyingAfterCheckpoints(4);
    assertThatThrownBy(() -> executor.execute(first, dying))
        .isInstanceOf(RecordingProgress.WorkerDied.class);
    RunRecord open = inProgress(first, "directory", "export");
    assertThat(open.checkpoint()).matches("mark:\\d+:\\d+");
    assertThat(Files.readAllLines(file)).containsExactlyElementsOf(expected);
    assertThat(exportedToDirectory()).isEqualTo(2_000);

    RecordingProgress resumed =
        new RecordingProgress(Integer.MAX_VALUE, dying.lastCheckpoint().orElseThrow());
    RunProfileOutcome outcome = executor.execute(attempt(first, 2), resumed);

    assertThat(outcome.runRecordId()).isEqualTo(open.id());
    assertThat(outcome.status()).isEqualTo(StepStatus.CompleteWithError);
    assertThat(outcome.stats())
        .containsEntry("exported", 5_000L)
        .containsEntry("errors", 1L)
        .containsEntry("objectsProcessed", 5_000L);
    // It went on marking: its first report is the page after the last committed one, no rewrite.
    assertThat(resumed.processed.get(0)).isEqualTo(2_500);
    assertThat(Files.readAllLines(file)).containsExactlyElementsOf(expected);
    assertThat(exportedToDirectory()).isEqualTo(5_000);
    assertThat(
            count(
                "select count(*) from pending_export where connected_system_id = 'directory'"
                    + " and status <> 'Exported'"))
        .isZero();
    assertThat(count("select count(*) from run_item where run_record_id = '" + open.id() + "'"))
        .isEqualTo(5_001);
    assertThat(
            count(
                "select count(*) from (select object_ref from run_item where run_record_id = '"
                    + open.id()
                    + "' group by object_ref having count(*) > 1) d"))
        .isZero();
    assertThat(items(outcome))
        .filteredOn(i -> i.item().isError())
        .singleElement()
        .satisfies(i -> assertThat(i.item().errorMessage()).contains("dropped from the file"));
  }

  static final String DIRECTORY_HEADER =
      "employeeId,displayName,givenName,surname,mail,department,title";

  static String directoryRow(int n) {
    return "E"
        + n
        + ",Person "
        + n
        + ",First"
        + n
        + ",Last"
        + n
        + ",p"
        + n
        + "@example.org,R&D,Engineer";
  }

  /** The Directory's objects in the order of their first pending export. */
  List<String> directoryAnchorsInExportOrder() {
    return store.inTransaction(
        c -> {
          Set<String> anchors = new LinkedHashSet<>();
          try (Statement statement = c.createStatement();
              ResultSet rows =
                  statement.executeQuery(
                      "select c.anchor from pending_export pe join cso c on c.id = pe.cso_id"
                          + " where pe.connected_system_id = 'directory' order by pe.id")) {
            while (rows.next()) {
              anchors.add(rows.getString(1));
            }
          }
          return List.copyOf(anchors);
        });
  }

  long exportedToDirectory() {
    return count(
        "select count(*) from pending_export where connected_system_id = 'directory'"
            + " and status = 'Exported'");
  }

  /** The run record of a step's run profile that a lost attempt left in progress. */
  RunRecord inProgress(RunProfileRun run, String system, String profile) {
    return store
        .inTransaction(
            c ->
                new RunRecords(clock).findInProgress(c, "exec-1", run.stepIndex(), system, profile))
        .orElseThrow();
  }

  @Test
  void aRunWhoseEveryItemFailedIsFailedWithError() throws IOException {
    hrFile(",no,anchor,,,,,,,\nE2,short\n");
    RunProfileOutcome outcome = execute("HR System", "Full Import");
    assertThat(outcome.status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(outcome.stats()).containsEntry("errors", 2L);
  }

  @Test
  void aMissingFileFailsTheRunWithItsPath() {
    RunProfileOutcome outcome = execute("HR System", "Full Import");
    assertThat(outcome.status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(outcome.message()).contains("hr.csv").contains("does not exist");
    RunRecord record =
        store
            .inTransaction(c -> new RunRecords(clock).find(c, outcome.runRecordId()))
            .orElseThrow();
    assertThat(record.status()).isEqualTo(RunStatus.FailedWithError);
    assertThat(record.endedAt()).isNotNull();
  }

  @Test
  void aRunOnASystemBeingClearedFailsWithoutOpeningARunRecord() throws IOException {
    hrFile("");
    execute("HR System", "Full Import");
    new SystemOperations(store, clock).hold("hr", SystemOperation.Clearing, "wf-clear-hr");
    long recordsBefore =
        store.inTransaction(c -> new RunRecords(clock).list(c, null, null, 100).size());

    assertThatThrownBy(() -> execute("HR System", "Full Import"))
        .isInstanceOf(ApplicationFailure.class)
        .hasMessageContaining("connected system 'hr'")
        .hasMessageContaining("cannot run on it until that has finished")
        .satisfies(e -> assertThat(((ApplicationFailure) e).isNonRetryable()).isTrue());
    long recordsAfter =
        store.inTransaction(c -> new RunRecords(clock).list(c, null, null, 100).size());
    assertThat(recordsAfter).isEqualTo(recordsBefore);
  }

  @Test
  void aRunProfileOfASystemBeingClearedFailsWithAClearMessageAndRunsOnceItIsActive()
      throws IOException {
    hrFile(person(1, "R&D", "Employee", "Active"));
    SystemOperations operations = new SystemOperations(store, clock);
    // The step names the system by its name; the hold is on its id.
    RunProfileRun run = run("HR System", "Full Import");
    operations.hold("hr", SystemOperation.Clearing, "jimflow-system-hr");

    assertThatThrownBy(() -> executor.execute(run, new RecordingProgress()))
        .isInstanceOf(ApplicationFailure.class)
        .hasMessageContaining("connected system 'hr' is being cleared (workflow jimflow-system-hr")
        .satisfies(e -> assertThat(((ApplicationFailure) e).isNonRetryable()).isTrue());
    assertThat(count("select count(*) from run_record")).isZero();

    operations.release("hr", "jimflow-system-hr");
    RunProfileOutcome outcome = executor.execute(run, new RecordingProgress());
    assertThat(outcome.status()).isEqualTo(StepStatus.Complete);
    assertThat(count("select count(*) from run_record")).isOne();
  }

  @Test
  void anUnknownRunProfileIsANonRetryableFailure() {
    assertThatThrownBy(() -> execute("HR System", "Full Imprt"))
        .isInstanceOf(ApplicationFailure.class)
        .hasMessageContaining("no run profile 'Full Imprt'")
        .satisfies(e -> assertThat(((ApplicationFailure) e).isNonRetryable()).isTrue());
  }

  @Test
  void abandoningFinalizesARecordLeftInProgressOnce() throws IOException {
    StringBuilder rows = new StringBuilder();
    for (int i = 1; i <= 5_000; i++) {
      rows.append(person(i, "R&D", "Employee", "Active"));
    }
    hrFile(rows.toString());
    RunProfileRun run = run("HR System", "Full Import");
    assertThatThrownBy(() -> executor.execute(run, RecordingProgress.dyingAfterCheckpoints(1)))
        .isInstanceOf(RecordingProgress.WorkerDied.class);

    Optional<String> first =
        executor.abandon(new AbandonedRun(run, StepStatus.Cancelled, "step cancelled by user"));
    Optional<String> again =
        executor.abandon(
            new AbandonedRun(run, StepStatus.FailedWithError, "step timed out after PT2H"));

    List<RunRecord> records =
        store.inTransaction(c -> new RunRecords(clock).list(c, "hr", null, 10));
    assertThat(records)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.status()).isEqualTo(RunStatus.Cancelled);
              assertThat(r.message()).isEqualTo("step cancelled by user");
              assertThat(r.objectsProcessed()).isEqualTo(2_000);
            });
    assertThat(first).contains(records.get(0).id());
    assertThat(again).isEqualTo(first);
  }

  @Test
  void aFullImportCancelledAfterItsFirstPageCommitsOnlyThatPageAndMarksNothingAbsent()
      throws IOException {
    importPeopleThenDropTheFirstTwoThousand();
    RunProfileRun full = run("HR System", "Full Import");
    // Report 1 is the heartbeat before the first page, report 2 the one after it brings the cancel.
    RecordingProgress progress = RecordingProgress.cancelledAfter(2);

    assertThatThrownBy(() -> executor.execute(full, progress))
        .isInstanceOf(ActivityCanceledException.class);

    assertThat(progress.checkpoints).as("one page committed").hasSize(1);
    RunRecord cancelled = inProgress(full, "full-import");
    assertThat(cancelled.checkpoint()).isEqualTo("rows:2000");
    assertThat(cancelled.objectsProcessed()).as("one page read").isEqualTo(2_000);
    assertThat(cancelled.totals().get(Total.ADDED)).isEqualTo(1_000);
    assertThat(cancelled.totals().get(Total.UPDATED)).isEqualTo(1_000);
    assertThat(cancelled.totals().get(Total.DELETED)).isZero();
    assertThat(count("select count(*) from cso where connected_system_id = 'hr'"))
        .as("persons 3,001-4,000 of the first page were added, none of the second page")
        .isEqualTo(4_000);
    assertThat(count("select count(*) from cso where anchor = 'E4001'")).isZero();
    assertThat(
            count(
                "select count(*) from cso where connected_system_id = 'hr' and state <> 'Normal'"))
        .as("nothing marked absent")
        .isZero();
    assertThat(
            count(
                "select count(*) from run_item where run_record_id = '"
                    + cancelled.id()
                    + "' and change_type = 'Deleted'"))
        .isZero();
  }

  @Test
  void aCancelThatArrivesBeforeAnImportsFirstPageCommitsNoPage() throws IOException {
    importPeopleThenDropTheFirstTwoThousand();
    RunProfileRun full = run("HR System", "Full Import");
    RecordingProgress progress = RecordingProgress.cancelledAfter(1);

    assertThatThrownBy(() -> executor.execute(full, progress))
        .isInstanceOf(ActivityCanceledException.class);

    assertThat(progress.processed).as("one heartbeat, before any page").containsExactly(0L);
    assertThat(progress.checkpoints).isEmpty();
    RunRecord cancelled = inProgress(full, "full-import");
    assertThat(cancelled.objectsProcessed()).isZero();
    assertThat(cancelled.itemsWritten()).isZero();
    assertThat(count("select count(*) from cso where connected_system_id = 'hr'")).isEqualTo(3_000);
    assertThat(
            count(
                "select count(*) from cso where connected_system_id = 'hr' and state <> 'Normal'"))
        .isZero();
  }

  @Test
  void aDeltaSynchronisationCancelledAfterItsFirstPageKeepsThatPageAndLeavesTheRestToTheNext()
      throws IOException {
    importPeople(3_000);
    RunProfileRun sync = run("HR System", "Delta Synchronisation");

    // The heartbeat after the first page brings the cancel; the workflow then finalizes the record.
    assertThatThrownBy(() -> executor.execute(sync, RecordingProgress.cancelledAfter(1)))
        .isInstanceOf(ActivityCanceledException.class);
    Optional<String> finalized =
        executor.abandon(new AbandonedRun(sync, StepStatus.Cancelled, "cancelled"));

    RunRecord cancelled =
        store
            .inTransaction(
                c ->
                    new RunRecords(clock)
                        .findForStep(c, "exec-1", sync.stepIndex(), "hr", "delta-sync"))
            .get(0);
    assertThat(finalized).contains(cancelled.id());
    assertThat(cancelled.status()).isEqualTo(RunStatus.Cancelled);
    assertThat(cancelled.endedAt()).isNotNull();
    assertThat(cancelled.objectsProcessed()).isEqualTo(2_000);
    // Persons 1-2,000: 1,800 in scope, each in the directory; 1,400 of them employees with a badge.
    assertThat(cancelled.totals().get(Total.PROJECTED)).isEqualTo(1_800);
    assertThat(cancelled.totals().get(Total.PENDING_EXPORTS)).isEqualTo(3_200);
    assertThat(count("select count(*) from mvo")).isEqualTo(1_800);
    assertThat(count("select count(*) from pending_export")).isEqualTo(3_200);
    assertThat(
            count("select count(*) from run_item where run_record_id = '" + cancelled.id() + "'"))
        .isEqualTo(cancelled.itemsWritten())
        .isEqualTo(1_800 + 3_200);
    // Only what the committed page synchronised is no longer pending.
    assertThat(
            count(
                "select count(*) from cso where connected_system_id = 'hr' and sync_pending = true"))
        .isEqualTo(1_000);

    RunProfileOutcome next = execute("HR System", "Delta Synchronisation");

    assertThat(next.status()).isEqualTo(StepStatus.Complete);
    assertThat(next.stats())
        .containsEntry("objectsProcessed", 1_000L)
        .containsEntry("projected", 2_700L - 1_800);
    // As after one uninterrupted run: 2,700 in scope, 2,100 of them employees; nothing twice.
    assertThat(count("select count(*) from mvo")).isEqualTo(2_700);
    assertThat(count("select count(*) from pending_export")).isEqualTo(2_700 + 2_100);
    assertThat(
            count(
                "select count(*) from (select mvo_id, connected_system_id from pending_export"
                    + " group by mvo_id, connected_system_id having count(*) > 1) d"))
        .isZero();
    assertThat(
            count(
                "select count(*) from cso where connected_system_id = 'hr' and sync_pending = true"))
        .isZero();
  }
}
