package io.jimflow.store;

import io.jimflow.sync.ExportChange;
import io.jimflow.sync.TargetFacts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Pending exports: changes the synchronisation decided for target systems. */
public final class PendingExports {

  private static final String SELECT =
      "select pe.*, c.anchor from pending_export pe join cso c on c.id = pe.cso_id";

  private static final BulkInsert NEW_EXPORTS =
      new BulkInsert(
          "pending_export",
          BulkInsert.varchar("connected_system_id"),
          BulkInsert.bigint("cso_id"),
          BulkInsert.varchar("mvo_id"),
          BulkInsert.varchar("change_type"),
          BulkInsert.varchar("attributes"),
          BulkInsert.varchar("status"),
          BulkInsert.bool("drift_correction"),
          BulkInsert.varchar("created_by_run"),
          BulkInsert.timestamp("created_at"));

  private final Clock clock;

  public PendingExports(Clock clock) {
    this.clock = clock;
  }

  /** A pending export to create. */
  public record NewPendingExport(
      String connectedSystem,
      long csoId,
      String mvoId,
      ExportChange change,
      Map<String, String> attributes,
      boolean driftCorrection,
      String runId) {}

  public void insert(Connection connection, List<NewPendingExport> exports) throws SQLException {
    Instant now = clock.instant();
    List<Object[]> rows = new ArrayList<>(exports.size());
    for (NewPendingExport export : exports) {
      rows.add(
          new Object[] {
            export.connectedSystem(),
            export.csoId(),
            export.mvoId(),
            export.change().name(),
            AttributesJson.write(export.attributes()),
            ExportStatus.Pending.name(),
            export.driftCorrection(),
            export.runId(),
            now
          });
    }
    NEW_EXPORTS.insert(connection, rows);
  }

  /** New content for a still Pending export: a later synchronisation changed its mind. */
  public record Replacement(long id, ExportChange change, Map<String, String> attributes) {}

  /**
   * Replaces what still Pending exports ask for, in one statement for all of them; an export no
   * longer Pending keeps what it had.
   */
  public void replace(Connection connection, Collection<Replacement> replacements)
      throws SQLException {
    if (replacements.isEmpty()) {
      return;
    }
    Map<Long, Replacement> byId = Sql.lastById(replacements, Replacement::id);
    Collection<Replacement> rows = byId.values();
    Sql.update(
        connection,
        Sql.updateByIdFromArrays(
            "pending_export",
            "cast(? as bigint array), cast(? as varchar array), cast(? as varchar array)",
            "id, change_type, attributes",
            "change_type = v.change_type, attributes = v.attributes",
            "t.status = '" + ExportStatus.Pending.name() + "'"),
        statement -> {
          Sql.setLongs(statement, 1, byId.keySet());
          Sql.setStrings(statement, 2, rows.stream().map(r -> r.change().name()).toList());
          Sql.setStrings(
              statement, 3, rows.stream().map(r -> AttributesJson.write(r.attributes())).toList());
        });
  }

  /** Unconfirmed (Pending or Exported) exports of these CSOs, by CSO id, oldest first. */
  public Map<Long, List<PendingExportRow>> findOpenByCso(
      Connection connection, Collection<Long> csoIds) throws SQLException {
    Map<Long, List<PendingExportRow>> found = new HashMap<>();
    if (csoIds.isEmpty()) {
      return found;
    }
    try (PreparedStatement statement =
        connection.prepareStatement(
            SELECT + " where pe.status <> ? and pe.cso_id = ANY(?) order by pe.id")) {
      statement.setString(1, ExportStatus.Confirmed.name());
      Sql.setLongs(statement, 2, csoIds);
      for (PendingExportRow row : rows(statement)) {
        found.computeIfAbsent(row.csoId(), k -> new ArrayList<>()).add(row);
      }
    }
    return found;
  }

  /** Where a system's Pending exports end: the highest id, and how many there are up to it. */
  public record PendingRange(long lastId, long count) {}

  /**
   * The highest id and the number of a system's Pending exports with ids up to {@code upToId} (all
   * of them for {@link Long#MAX_VALUE}).
   */
  public PendingRange pendingRange(Connection connection, String system, long upToId)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select max(id), count(*) from pending_export"
                + " where connected_system_id = ? and status = ? and id <= ?")) {
      statement.setString(1, system);
      statement.setString(2, ExportStatus.Pending.name());
      statement.setLong(3, upToId);
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return new PendingRange(rows.getLong(1), rows.getLong(2));
      }
    }
  }

  /** A Pending export without what it asks for: enough to page through, mark and list it. */
  public record PendingRef(long id, long csoId, String mvoId, String anchor) {}

  /**
   * Up to {@code limit} of a system's Pending exports with ids after {@code afterId} and up to
   * {@code upToId}, in id order, without their attributes.
   */
  public List<PendingRef> findPendingRefs(
      Connection connection, String system, long afterId, long upToId, int limit)
      throws SQLException {
    try (PreparedStatement statement =
            pendingPage(
                connection,
                "select pe.id, pe.cso_id, pe.mvo_id, c.anchor from pending_export pe"
                    + " join cso c on c.id = pe.cso_id",
                system,
                afterId,
                upToId,
                limit);
        ResultSet rows = statement.executeQuery()) {
      List<PendingRef> refs = new ArrayList<>();
      while (rows.next()) {
        refs.add(
            new PendingRef(rows.getLong(1), rows.getLong(2), rows.getString(3), rows.getString(4)));
      }
      return refs;
    }
  }

  /**
   * A system's Pending exports with ids up to {@code upToId} of its CSOs with these anchors (of any
   * object type), by anchor, each anchor's oldest first.
   */
  public Map<String, List<PendingExportRow>> findPendingByAnchors(
      Connection connection, String system, Collection<String> anchors, long upToId)
      throws SQLException {
    Map<String, List<PendingExportRow>> found = new HashMap<>();
    if (anchors.isEmpty()) {
      return found;
    }
    // Only the anchor in SQL, which the anchor-first index serves; the system is checked here.
    Map<Long, String> anchorByCso = new HashMap<>();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select id, anchor, connected_system_id from cso where anchor = ANY(?)")) {
      Sql.setStrings(statement, 1, anchors);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          if (rows.getString(3).equals(system)) {
            anchorByCso.put(rows.getLong(1), rows.getString(2));
          }
        }
      }
    }
    if (anchorByCso.isEmpty()) {
      return found;
    }
    // The bound is checked here: in SQL, a range on the id could lead the database to scan the
    // primary key instead of seeking these CSOs' exports.
    List<PendingExportRow> exports = new ArrayList<>();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select * from pending_export where cso_id = ANY(?) and status = ?")) {
      Sql.setLongs(statement, 1, anchorByCso.keySet());
      statement.setString(2, ExportStatus.Pending.name());
      for (PendingExportRow row : rows(statement, anchorByCso)) {
        if (row.id() <= upToId) {
          exports.add(row);
        }
      }
    }
    exports.sort(Comparator.comparingLong(PendingExportRow::id));
    for (PendingExportRow export : exports) {
      found.computeIfAbsent(export.anchor(), k -> new ArrayList<>()).add(export);
    }
    return found;
  }

  /** Up to {@code limit} of a system's Pending exports after {@code afterId}, in id order. */
  public List<PendingExportRow> findPendingAfter(
      Connection connection, String system, long afterId, int limit) throws SQLException {
    try (PreparedStatement statement =
        pendingPage(connection, SELECT, system, afterId, Long.MAX_VALUE, limit)) {
      return rows(statement);
    }
  }

  /**
   * A page of a system's Pending exports with ids in ({@code afterId}, {@code upToId}], in id
   * order: {@code select} reads them as {@code pe}. The order is spelt as the columns of the index
   * {@code pending_export_status (connected_system_id, status, id)}: with the system and status
   * fixed it is id order, and the database reads the index in order instead of sorting every
   * pending export of the system for each page.
   */
  private static PreparedStatement pendingPage(
      Connection connection, String select, String system, long afterId, long upToId, int limit)
      throws SQLException {
    PreparedStatement statement =
        connection.prepareStatement(
            select
                + " where pe.connected_system_id = ? and pe.status = ? and pe.id > ? and pe.id <= ?"
                + " order by pe.connected_system_id, pe.status, pe.id limit "
                + limit);
    try {
      statement.setString(1, system);
      statement.setString(2, ExportStatus.Pending.name());
      statement.setLong(3, afterId);
      statement.setLong(4, upToId);
      return statement;
    } catch (SQLException e) {
      statement.close();
      throw e;
    }
  }

  /** A system's Pending exports with ids up to {@code upToId}, counted by change. */
  public Map<ExportChange, Long> countPendingByChange(
      Connection connection, String system, long upToId) throws SQLException {
    return PendingExportSummary.countPendingByChange(connection, system, upToId);
  }

  /**
   * A Pending export as a sample of what an export would change.
   *
   * @param now the values the target object holds now (its CSO's attributes)
   * @param asked the values the export asks for
   */
  public record PendingSample(
      ExportChange change, String anchor, Map<String, String> now, Map<String, String> asked) {}

  /**
   * The first {@code limit} Pending exports of this change with ids up to {@code upToId}, in id
   * order.
   */
  public List<PendingSample> samplePending(
      Connection connection, String system, ExportChange change, long upToId, int limit)
      throws SQLException {
    return PendingExportSummary.samplePending(connection, system, change, upToId, limit);
  }

  public long countPending(Connection connection, String system) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select count(*) from pending_export where connected_system_id = ? and status = ?")) {
      statement.setString(1, system);
      statement.setString(2, ExportStatus.Pending.name());
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }

  public void markExported(Connection connection, Collection<Long> ids) throws SQLException {
    setStatus(connection, ids, ExportStatus.Exported, "exported_at");
  }

  public void markConfirmed(Connection connection, Collection<Long> ids) throws SQLException {
    setStatus(connection, ids, ExportStatus.Confirmed, "confirmed_at");
  }

  public long countOpen(Connection connection, String system) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select count(*) from pending_export where connected_system_id = ? and status <> ?")) {
      statement.setString(1, system);
      statement.setString(2, ExportStatus.Confirmed.name());
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }

  private void setStatus(
      Connection connection, Collection<Long> ids, ExportStatus status, String timestampColumn)
      throws SQLException {
    Instant now = clock.instant();
    Sql.updateByIds(
        connection,
        "update pending_export set status = ?, " + timestampColumn + " = ? where id = ANY(?)",
        ids,
        statement -> {
          statement.setString(1, status.name());
          Sql.setInstant(statement, 2, now);
        });
  }

  private static List<PendingExportRow> rows(PreparedStatement statement) throws SQLException {
    return rows(statement, null);
  }

  /**
   * @param anchorByCso the CSOs' anchors when the query does not join {@code cso} for them
   */
  private static List<PendingExportRow> rows(
      PreparedStatement statement, Map<Long, String> anchorByCso) throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      List<PendingExportRow> result = new ArrayList<>();
      while (rows.next()) {
        result.add(
            new PendingExportRow(
                rows.getLong("id"),
                rows.getString("connected_system_id"),
                rows.getLong("cso_id"),
                anchorByCso == null
                    ? rows.getString("anchor")
                    : anchorByCso.get(rows.getLong("cso_id")),
                rows.getString("mvo_id"),
                ExportChange.valueOf(rows.getString("change_type")),
                AttributesJson.read(rows.getString("attributes")),
                ExportStatus.valueOf(rows.getString("status")),
                rows.getBoolean("drift_correction")));
      }
      return result;
    }
  }

  /**
   * What a target object has, and what its outstanding exports (oldest first) will give it: the
   * facts an outbound rule decides on.
   */
  public static TargetFacts targetFacts(CsoRow target, List<PendingExportRow> outstanding) {
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
}
