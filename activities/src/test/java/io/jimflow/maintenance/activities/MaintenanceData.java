package io.jimflow.maintenance.activities;

import io.jimflow.maintenance.MaintenanceKind;
import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.StepRecord;
import io.jimflow.schedule.StepStatus;
import io.jimflow.store.ChangeHistory;
import io.jimflow.store.ChangeHistory.CsoChange;
import io.jimflow.store.ChangeType;
import io.jimflow.store.ConnectorSpace;
import io.jimflow.store.ConnectorSpace.NewCso;
import io.jimflow.store.CsoState;
import io.jimflow.store.ExecutionRecords;
import io.jimflow.store.MaintenanceRuns;
import io.jimflow.store.Metaverse;
import io.jimflow.store.MvoRow;
import io.jimflow.store.NewRunRecord;
import io.jimflow.store.RunItem;
import io.jimflow.store.RunOrigin;
import io.jimflow.store.RunRecords;
import io.jimflow.store.RunStatus;
import io.jimflow.store.RunType;
import io.jimflow.store.Store;
import io.jimflow.store.SystemCatalog;
import io.jimflow.store.SystemCatalog.ProfileEntry;
import io.jimflow.store.SystemCatalog.SystemEntry;
import io.jimflow.sync.AttributeFlow;
import io.jimflow.sync.DeletionRule;
import io.jimflow.sync.OutboundRule;
import io.jimflow.sync.SyncEngine;
import io.jimflow.sync.SyncRules;
import io.jimflow.testing.SettableClock;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Identity data for maintenance tests: an authoritative HR system, a directory that people are
 * provisioned to and deprovisioned from, and MVOs with deletion dates.
 */
final class MaintenanceData {

  static final Duration GRACE = Duration.ofDays(7);

  static final SyncEngine ENGINE =
      new SyncEngine(
          new SyncRules(
              List.of(),
              List.of(
                  new OutboundRule(
                      "to-directory",
                      "directory",
                      "user",
                      "uid",
                      "person",
                      List.of(),
                      List.of(new AttributeFlow("employeeId", "uid")),
                      true)),
              List.of(new DeletionRule("person", GRACE, Set.of("hr")))));

  final Store store;
  final SettableClock clock;
  final Metaverse metaverse;
  final ConnectorSpace connectorSpace;
  final RunRecords runRecords;
  final ChangeHistory history;

  MaintenanceData(Store store, SettableClock clock) {
    this.store = store;
    this.clock = clock;
    this.metaverse = new Metaverse(clock, Map.of());
    this.connectorSpace = new ConnectorSpace(clock);
    this.runRecords = new RunRecords(clock);
    this.history = new ChangeHistory(clock);
    store.inTransaction(
        c -> {
          new SystemCatalog(clock)
              .save(
                  c,
                  List.of(
                      new SystemEntry(
                          "hr",
                          "HR",
                          "csv",
                          List.of(
                              new ProfileEntry("full-import", "Full Import", RunType.FullImport))),
                      new SystemEntry("directory", "Directory", "csv", List.of())));
          return null;
        });
  }

  /** A person MVO with the given deletion date (null: not eligible). */
  String person(String employeeId, Instant deletionEligibleAt) {
    String id = UUID.randomUUID().toString();
    store.inTransaction(
        c -> {
          metaverse.insert(
              c,
              List.of(
                  new MvoRow(id, "person", Map.of("employeeId", employeeId), deletionEligibleAt)));
          return null;
        });
    return id;
  }

  /** A CSO of a system joined to the MVO; returns its id. */
  long joinedCso(String system, String anchor, String mvoId) {
    return store.inTransaction(
        c -> {
          Map<String, Long> ids =
              connectorSpace.insert(
                  c,
                  List.of(
                      new NewCso(
                          system,
                          "user",
                          anchor,
                          "{\"uid\":\"" + anchor + "\"}",
                          "h",
                          CsoState.Normal,
                          mvoId,
                          "Joined",
                          false,
                          null)));
          return ids.get(anchor);
        });
  }

  void csoChangeAt(Instant at, long csoId, String system) {
    Instant before = clock.instant();
    clock.set(at);
    store.inTransaction(
        c -> {
          history.recordCsoChanges(
              c,
              null,
              List.of(new CsoChange(csoId, system, "a" + csoId, ChangeType.Updated, Map.of())));
          return null;
        });
    clock.set(before);
  }

  /** An ended run record of HR with {@code items} run items, ended at {@code endedAt}. */
  String endedRunAt(Instant endedAt, int items) {
    Instant before = clock.instant();
    clock.set(endedAt);
    String id =
        store.inTransaction(
            c -> {
              String run =
                  runRecords.create(
                      c,
                      new NewRunRecord(
                          "hr",
                          "full-import",
                          RunType.FullImport,
                          new RunOrigin("User", "ada", "Ada", null, null, null, null)));
              List<RunItem> list = new ArrayList<>();
              for (int i = 0; i < items; i++) {
                list.add(new RunItem("row " + i, null, null, ChangeType.Added, null, null));
              }
              runRecords.addItems(c, run, 0, list);
              runRecords.finish(c, run, RunStatus.Complete, null, null, null, null);
              return run;
            });
    clock.set(before);
    return id;
  }

  /**
   * An execution record with {@code steps} step records, ended Complete at {@code endedAt} (started
   * an hour before), or still InProgress when it is null (started a year before now).
   */
  void executionRecordAt(String id, Instant endedAt, int steps) {
    Instant started =
        endedAt == null ? clock.instant().minus(Duration.ofDays(365)) : endedAt.minusSeconds(3600);
    List<StepRecord> records = new ArrayList<>();
    for (int i = 0; i < steps; i++) {
      records.add(
          new StepRecord(
              i,
              i,
              "step " + i,
              "Executable",
              "count.sh",
              StepStatus.Complete,
              1,
              started,
              endedAt == null ? started : endedAt,
              null,
              null));
    }
    ExecutionRecord execution =
        new ExecutionRecord(
            id,
            "run-1",
            "nightly",
            "Nightly",
            TriggerKind.Scheduled,
            new Initiator(InitiatorType.Schedule, "nightly", "Nightly"),
            endedAt == null ? ExecutionStatus.InProgress : ExecutionStatus.Complete,
            null,
            steps,
            steps,
            started,
            endedAt,
            records);
    store.inTransaction(c -> new ExecutionRecords(clock).save(c, 1, execution));
  }

  /** A housekeeping run record ended at {@code endedAt}, or still InProgress when it is null. */
  void maintenanceRunAt(String id, Instant endedAt) {
    Instant before = clock.instant();
    clock.set(endedAt == null ? before.minus(Duration.ofDays(365)) : endedAt);
    MaintenanceRuns runs = new MaintenanceRuns(clock);
    store.inTransaction(
        c -> {
          runs.open(
              c,
              id,
              MaintenanceKind.Housekeeping,
              null,
              new Initiator(InitiatorType.Schedule, "jimflow-housekeeping", "Housekeeping"),
              "wf-" + id);
          if (endedAt != null) {
            runs.finish(c, id, "Complete", null, Map.of());
          }
          return null;
        });
    clock.set(before);
  }

  /** An InProgress run record of a system's Full Import, opened by a step of the execution. */
  String inProgressRunOf(String system, String executionId) {
    return store.inTransaction(
        c ->
            runRecords.create(
                c,
                new NewRunRecord(
                    system,
                    "full-import",
                    RunType.FullImport,
                    new RunOrigin(
                        "Schedule",
                        "nightly",
                        "Nightly",
                        executionId,
                        "nightly",
                        0,
                        "Full Import"))));
  }

  String inProgressRun() {
    return store.inTransaction(
        c ->
            runRecords.create(
                c,
                new NewRunRecord(
                    "hr",
                    "full-import",
                    RunType.FullImport,
                    new RunOrigin(
                        "Schedule", "nightly", "Nightly", "exec", "nightly", 0, "Full Import"))));
  }

  long count(String sql) {
    return store.inTransaction(
        c -> {
          try (PreparedStatement statement = c.prepareStatement(sql);
              ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getLong(1);
          }
        });
  }

  List<String> strings(String sql) {
    return store.inTransaction(
        c -> {
          try (PreparedStatement statement = c.prepareStatement(sql);
              ResultSet rows = statement.executeQuery()) {
            List<String> values = new ArrayList<>();
            while (rows.next()) {
              values.add(rows.getString(1));
            }
            return values;
          }
        });
  }
}
