package io.jimflow.maintenance;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.store.ChangeType;
import io.jimflow.store.ConnectorSpace;
import io.jimflow.store.CsoRow;
import io.jimflow.store.Metaverse;
import io.jimflow.store.MvoRow;
import io.jimflow.store.PendingExportRow;
import io.jimflow.store.PendingExports;
import io.jimflow.store.PendingExports.NewPendingExport;
import io.jimflow.store.Store;
import io.jimflow.sync.ExportChange;
import io.jimflow.sync.MvoState;
import io.jimflow.sync.OutboundDecision;
import io.jimflow.sync.OutboundRule;
import io.jimflow.sync.SyncEngine;
import io.jimflow.sync.TargetFacts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The store work of maintenance: MVO housekeeping, history retention, clearing and deleting
 * connected systems. Every loop commits one short transaction per batch and reports it to a {@link
 * Progress} (the activity heartbeats there); all of it is idempotent, so a retried attempt
 * continues where the lost one committed.
 */
public final class MaintenanceStore {

  /** Rows handled per transaction by the connected-system tasks and per housekeeping page. */
  static final int PAGE = 500;

  private final Store store;
  private final SyncEngine engine;
  private final Clock clock;
  private final Metaverse metaverse;
  private final ConnectorSpace connectorSpace;
  private final PendingExports pendingExports;

  /**
   * @param engine the configured sync rules (outbound and deletion rules are used)
   */
  public MaintenanceStore(Store store, SyncEngine engine, Clock clock) {
    this.store = store;
    this.engine = engine;
    this.clock = clock;
    this.metaverse = new Metaverse(clock, Map.of());
    this.connectorSpace = new ConnectorSpace(clock);
    this.pendingExports = new PendingExports(clock);
  }

  /** Called after each committed batch with the running count. */
  @FunctionalInterface
  public interface Progress {
    void committed(long soFar);

    Progress NONE = soFar -> {};
  }

  public Store store() {
    return store;
  }

  // ---- MVO housekeeping ---------------------------------------------------------------------

  /** What one housekeeping pass deleted. */
  public record MvoDeletions(int mvosDeleted, int deprovisionExports, boolean capReached) {}

  /**
   * Deletes up to {@code cap} MVOs whose grace period has passed at the store clock's now: delete
   * exports for their targets where outbound rules deprovision, then the MVO, with a Deleted entry
   * in its change history naming who initiated the deletion (else {@code fallback}).
   *
   * @param runRecordId written to the change history entries
   */
  public MvoDeletions deleteDueMvos(
      int cap, String runRecordId, Initiator fallback, Progress progress) {
    Instant now = clock.instant();
    int deleted = 0;
    int exports = 0;
    while (deleted < cap) {
      int page = Math.min(PAGE, cap - deleted);
      int[] done =
          store.inTransaction(
              c -> {
                List<MvoRow> due = metaverse.findDueForDeletion(c, now, page);
                return due.isEmpty()
                    ? new int[] {0, 0}
                    : new int[] {due.size(), deleteMvos(c, due, runRecordId, fallback)};
              });
      deleted += done[0];
      exports += done[1];
      progress.committed(deleted);
      if (done[0] < page) {
        return new MvoDeletions(deleted, exports, false);
      }
    }
    boolean more = store.inTransaction(c -> !metaverse.findDueForDeletion(c, now, 1).isEmpty());
    return new MvoDeletions(deleted, exports, more);
  }

  /** Whether any MVO is due now; housekeeping writes no run record when none is. */
  public boolean anyMvoDue() {
    Instant now = clock.instant();
    return store.inTransaction(c -> !metaverse.findDueForDeletion(c, now, 1).isEmpty());
  }

  private int deleteMvos(Connection c, List<MvoRow> due, String runRecordId, Initiator fallback)
      throws SQLException {
    List<String> ids = due.stream().map(MvoRow::id).toList();
    Map<String, Map<String, CsoRow>> targets = new HashMap<>();
    for (CsoRow connector : connectorSpace.findByMvoIds(c, ids)) {
      targets
          .computeIfAbsent(connector.mvoId(), k -> new HashMap<>())
          .put(connector.connectedSystem(), connector);
    }
    List<Long> targetIds = new ArrayList<>();
    targets.values().forEach(m -> m.values().forEach(t -> targetIds.add(t.id())));
    Map<Long, List<PendingExportRow>> open = pendingExports.findOpenByCso(c, targetIds);
    List<NewPendingExport> deletes = new ArrayList<>();
    for (MvoRow mvo : due) {
      for (OutboundRule rule : engine.outboundRulesFor(mvo.objectType())) {
        CsoRow target = targets.getOrDefault(mvo.id(), Map.of()).get(rule.connectedSystem());
        if (target == null) {
          continue;
        }
        OutboundDecision decision =
            SyncEngine.decideOutbound(
                rule, null, facts(target, open.getOrDefault(target.id(), List.of())));
        if (decision.kind() == OutboundDecision.Kind.DEPROVISION) {
          deletes.add(
              new NewPendingExport(
                  rule.connectedSystem(),
                  target.id(),
                  mvo.id(),
                  ExportChange.Delete,
                  Map.of(),
                  false,
                  runRecordId));
        }
      }
    }
    Map<String, Initiator> initiators = deletionInitiators(c, due);
    pendingExports.insert(c, deletes);
    metaverse.delete(c, ids);
    Instant now = clock.instant();
    try (PreparedStatement statement =
        c.prepareStatement(
            "insert into mvo_change (mvo_id, change_type, attributes, run_record_id, changed_at,"
                + " initiator_type, initiator_id, initiator_name) values (?,?,?,?,?,?,?,?)")) {
      for (MvoRow mvo : due) {
        Initiator initiator = initiators.getOrDefault(mvo.id(), fallback);
        statement.setString(1, mvo.id());
        statement.setString(2, ChangeType.Deleted.name());
        statement.setString(3, null);
        statement.setString(4, runRecordId);
        Jdbc.setInstant(statement, 5, now);
        statement.setString(6, initiator == null ? null : initiator.type().name());
        statement.setString(7, initiator == null ? null : initiator.id());
        statement.setString(8, initiator == null ? null : initiator.name());
        statement.addBatch();
      }
      statement.executeBatch();
    }
    return deletes.size();
  }

  /**
   * Who initiated each MVO's deletion: the maintenance task that marked it (while its deletion date
   * is still the one marked), else the run that last changed it; absent when neither is known.
   */
  private Map<String, Initiator> deletionInitiators(Connection c, List<MvoRow> due)
      throws SQLException {
    Map<String, Initiator> found = new HashMap<>();
    for (MvoRow mvo : due) {
      try (PreparedStatement statement =
          c.prepareStatement(
              "select eligible_at, initiator_type, initiator_id, initiator_name from mvo_deletion_initiator"
                  + " where mvo_id = ?")) {
        statement.setString(1, mvo.id());
        try (ResultSet rows = statement.executeQuery()) {
          if (rows.next()
              && mvo.deletionEligibleAt().equals(Jdbc.getInstant(rows, "eligible_at"))
              && rows.getString("initiator_type") != null) {
            found.put(mvo.id(), initiator(rows));
            continue;
          }
        }
      }
      try (PreparedStatement statement =
          c.prepareStatement(
              "select r.initiator_type, r.initiator_id, r.initiator_name from mvo_change h"
                  + " join run_record r on r.id = h.run_record_id where h.mvo_id = ?"
                  + " and r.initiator_type is not null order by h.id desc limit 1")) {
        statement.setString(1, mvo.id());
        try (ResultSet rows = statement.executeQuery()) {
          if (rows.next()) {
            found.put(mvo.id(), initiator(rows));
          }
        }
      }
    }
    return found;
  }

  private static Initiator initiator(ResultSet rows) throws SQLException {
    return new Initiator(
        io.jimflow.schedule.ScheduleExecutionInput.InitiatorType.valueOf(
            rows.getString("initiator_type")),
        rows.getString("initiator_id"),
        rows.getString("initiator_name"));
  }

  private static TargetFacts facts(CsoRow target, List<PendingExportRow> outstanding) {
    Map<String, String> pending = new HashMap<>();
    boolean deleting = false;
    for (PendingExportRow export : outstanding) {
      if (export.change() == ExportChange.Delete) {
        deleting = true;
      } else {
        deleting = false;
        pending.putAll(export.attributes());
      }
    }
    return new TargetFacts(target.attributes(), pending, deleting);
  }

  // ---- history retention --------------------------------------------------------------------

  /** What one kind's purge deleted. */
  public record Purged(long deleted, long itemsDeleted, long batches) {}

  /**
   * Deletes history of one kind written before the cutoff, {@code batchSize} rows per transaction.
   * The progress counts entries (change entries, or run records), not run items.
   */
  public Purged purge(HistoryKind kind, Instant cutoff, BatchPlan plan, Progress progress) {
    return switch (kind) {
      case CsoChanges -> purgeChanges("cso_change", cutoff, plan, progress);
      case MvoChanges -> purgeChanges("mvo_change", cutoff, plan, progress);
      case RunRecords -> purgeRunRecords(cutoff, plan, progress);
    };
  }

  private Purged purgeChanges(String table, Instant cutoff, BatchPlan plan, Progress progress) {
    long deleted = 0;
    long batches = 0;
    while (true) {
      int count =
          store.inTransaction(
              c -> {
                List<Long> ids =
                    Jdbc.longIds(
                        c,
                        "select id from "
                            + table
                            + " where changed_at < ? order by id limit "
                            + plan.batchSize(),
                        s -> Jdbc.setInstant(s, 1, cutoff));
                return Jdbc.deleteIn(c, table, "id", ids);
              });
      deleted += count;
      batches++;
      progress.committed(deleted);
      if (!plan.moreAfter(count)) {
        return new Purged(deleted, 0, batches);
      }
    }
  }

  private Purged purgeRunRecords(Instant cutoff, BatchPlan plan, Progress progress) {
    long records = 0;
    long items = 0;
    long batches = 0;
    String ended = " where status <> 'InProgress' and ended_at is not null and ended_at < ?";
    while (true) {
      List<String> ids =
          store.inTransaction(
              c ->
                  Jdbc.stringIds(
                      c,
                      "select id from run_record"
                          + ended
                          + " order by ended_at, id limit "
                          + plan.batchSize(),
                      s -> Jdbc.setInstant(s, 1, cutoff)));
      for (String id : ids) {
        // A large run has a million items: they go in batches, not in one cascading delete.
        while (true) {
          int count =
              store.inTransaction(
                  c -> {
                    List<Long> itemIds =
                        Jdbc.longIds(
                            c,
                            "select id from run_item where run_record_id = ? order by id limit "
                                + plan.batchSize(),
                            s -> s.setString(1, id));
                    return Jdbc.deleteIn(c, "run_item", "id", itemIds);
                  });
          items += count;
          batches++;
          if (!plan.moreAfter(count)) {
            break;
          }
          progress.committed(records);
        }
      }
      int deletedRecords = store.inTransaction(c -> Jdbc.deleteIn(c, "run_record", "id", ids));
      records += deletedRecords;
      batches++;
      progress.committed(records);
      if (!plan.moreAfter(ids.size())) {
        break;
      }
    }
    while (true) {
      int count =
          store.inTransaction(
              c -> {
                List<String> ids =
                    Jdbc.stringIds(
                        c,
                        "select id from maintenance_run"
                            + ended
                            + " order by ended_at, id limit "
                            + plan.batchSize(),
                        s -> Jdbc.setInstant(s, 1, cutoff));
                return Jdbc.deleteIn(c, "maintenance_run", "id", ids);
              });
      records += count;
      batches++;
      progress.committed(records);
      if (!plan.moreAfter(count)) {
        break;
      }
    }
    // The execution history follows the run records' period: an execution and its steps go
    // together (the steps cascade), once the execution ended before the cutoff.
    while (true) {
      int count =
          store.inTransaction(
              c -> {
                List<String> ids =
                    Jdbc.stringIds(
                        c,
                        "select id from execution_record"
                            + ended
                            + " order by ended_at, id limit "
                            + plan.batchSize(),
                        s -> Jdbc.setInstant(s, 1, cutoff));
                return Jdbc.deleteIn(c, "execution_record", "id", ids);
              });
      records += count;
      batches++;
      progress.committed(records);
      if (!plan.moreAfter(count)) {
        return new Purged(records, items, batches);
      }
    }
  }

  // ---- connected systems --------------------------------------------------------------------

  /** Whether the store knows the system (it ran at least once, or was saved to the catalog). */
  public boolean knowsSystem(String connectedSystem) {
    return store.inTransaction(
        c ->
            !Jdbc.stringIds(
                    c,
                    "select id from connected_system where id = ?",
                    s -> s.setString(1, connectedSystem))
                .isEmpty());
  }

  /**
   * Deletes a system's CSOs with their pending exports, and, if asked, the change history of its
   * objects; page by page.
   *
   * @return csosDeleted, pendingExportsDeleted and (with history) csoChangesDeleted
   */
  public Map<String, Long> clearObjects(
      String connectedSystem, boolean deleteHistory, Progress progress) {
    long csos = 0;
    long exports = 0;
    while (true) {
      long[] page =
          store.inTransaction(
              c -> {
                List<Long> ids =
                    Jdbc.longIds(
                        c,
                        "select id from cso where connected_system_id = ? order by id limit "
                            + PAGE,
                        s -> s.setString(1, connectedSystem));
                long exportCount = Jdbc.deleteIn(c, "pending_export", "cso_id", ids);
                long csoCount = Jdbc.deleteIn(c, "cso", "id", ids);
                return new long[] {csoCount, exportCount};
              });
      csos += page[0];
      exports += page[1];
      progress.committed(csos);
      if (page[0] < PAGE) {
        break;
      }
    }
    Map<String, Long> totals = new LinkedHashMap<>();
    totals.put("csosDeleted", csos);
    totals.put("pendingExportsDeleted", exports);
    if (deleteHistory) {
      long changes = 0;
      while (true) {
        int count =
            store.inTransaction(
                c -> {
                  List<Long> ids =
                      Jdbc.longIds(
                          c,
                          "select id from cso_change where connected_system_id = ? order by id limit "
                              + PAGE,
                          s -> s.setString(1, connectedSystem));
                  return Jdbc.deleteIn(c, "cso_change", "id", ids);
                });
        changes += count;
        progress.committed(csos + changes);
        if (count < PAGE) {
          break;
        }
      }
      totals.put("csoChangesDeleted", changes);
    }
    return totals;
  }

  /**
   * Gives the MVOs joined to a system's objects their deletion date, as the deletion rules would
   * once those objects are gone: those no other authoritative system holds. Remembers who asked, so
   * the change history of their eventual deletion names them.
   *
   * @return mvosMarkedForDeletion
   */
  public Map<String, Long> markOrphanedMvos(
      String connectedSystem, Initiator initiator, Progress progress) {
    Instant now = clock.instant();
    long marked = 0;
    long afterId = 0;
    while (true) {
      long from = afterId;
      long[] page =
          store.inTransaction(
              c -> {
                List<CsoRow> csos = new ArrayList<>();
                try (PreparedStatement statement =
                    c.prepareStatement(
                        "select id, mvo_id from cso where connected_system_id = ? and id > ?"
                            + " and mvo_id is not null order by id limit "
                            + PAGE)) {
                  statement.setString(1, connectedSystem);
                  statement.setLong(2, from);
                  try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                      csos.add(
                          new CsoRow(
                              rows.getLong(1),
                              connectedSystem,
                              null,
                              null,
                              "{}",
                              null,
                              null,
                              rows.getString(2),
                              null,
                              false,
                              null));
                    }
                  }
                }
                if (csos.isEmpty()) {
                  return new long[] {0, from, 0};
                }
                Set<String> mvoIds = new HashSet<>();
                csos.forEach(cso -> mvoIds.add(cso.mvoId()));
                Map<String, Set<String>> remaining = new HashMap<>();
                for (CsoRow connector : connectorSpace.findByMvoIds(c, mvoIds)) {
                  if (!connector.connectedSystem().equals(connectedSystem)) {
                    remaining
                        .computeIfAbsent(connector.mvoId(), k -> new HashSet<>())
                        .add(connector.connectedSystem());
                  }
                }
                long count = 0;
                for (MvoRow mvo : metaverse.findByIds(c, mvoIds).values()) {
                  MvoState state =
                      new MvoState(
                          mvo.id(), mvo.objectType(), mvo.attributes(), mvo.deletionEligibleAt());
                  Instant eligible =
                      engine.deletionEligibleAt(
                          state, remaining.getOrDefault(mvo.id(), Set.of()), now);
                  if (eligible == null || eligible.equals(mvo.deletionEligibleAt())) {
                    continue;
                  }
                  markForDeletion(
                      c,
                      mvo.id(),
                      eligible,
                      initiator,
                      "connected system '" + connectedSystem + "' deleted");
                  count++;
                }
                return new long[] {csos.size(), csos.get(csos.size() - 1).id(), count};
              });
      marked += page[2];
      afterId = page[1];
      progress.committed(marked);
      if (page[0] < PAGE) {
        return Map.of("mvosMarkedForDeletion", marked);
      }
    }
  }

  private void markForDeletion(
      Connection c, String mvoId, Instant eligible, Initiator initiator, String reason)
      throws SQLException {
    Instant now = clock.instant();
    Jdbc.update(
        c,
        "update mvo set deletion_eligible_at = ?, updated_at = ? where id = ?",
        s -> {
          Jdbc.setInstant(s, 1, eligible);
          Jdbc.setInstant(s, 2, now);
          s.setString(3, mvoId);
        });
    Jdbc.deleteIn(c, "mvo_deletion_initiator", "mvo_id", List.of(mvoId));
    Jdbc.update(
        c,
        "insert into mvo_deletion_initiator (mvo_id, eligible_at, initiator_type, initiator_id, initiator_name,"
            + " reason) values (?,?,?,?,?,?)",
        s -> {
          s.setString(1, mvoId);
          Jdbc.setInstant(s, 2, eligible);
          s.setString(3, initiator == null ? null : initiator.type().name());
          s.setString(4, initiator == null ? null : initiator.id());
          s.setString(5, initiator == null ? null : initiator.name());
          s.setString(6, reason);
        });
  }

  /**
   * Deletes a connected system: its objects and pending exports page by page, then its run profiles
   * and catalog entry. Its run records and change history stay for the audit trail (until history
   * retention takes them).
   *
   * @return csosDeleted and pendingExportsDeleted
   */
  public Map<String, Long> deleteSystem(String connectedSystem, Progress progress) {
    Map<String, Long> totals = new LinkedHashMap<>(clearObjects(connectedSystem, false, progress));
    store.inTransaction(
        c -> {
          Jdbc.update(
              c,
              "delete from run_profile where connected_system_id = ?",
              s -> s.setString(1, connectedSystem));
          Jdbc.update(
              c, "delete from connected_system where id = ?", s -> s.setString(1, connectedSystem));
          return null;
        });
    return totals;
  }

  /** The deletion date of an MVO, if it has one (for tests and the CLI). */
  public Optional<Instant> deletionEligibleAt(String mvoId) {
    return store.inTransaction(
        c ->
            Optional.ofNullable(metaverse.findByIds(c, List.of(mvoId)).get(mvoId))
                .map(MvoRow::deletionEligibleAt));
  }
}
