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

  /** Replaces what a still Pending export asks for (a later synchronisation changed its mind). */
  public void replace(
      Connection connection, long id, ExportChange change, Map<String, String> attributes)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "update pending_export set change_type = ?, attributes = ? where id = ? and status = ?")) {
      statement.setString(1, change.name());
      statement.setString(2, AttributesJson.write(attributes));
      statement.setLong(3, id);
      statement.setString(4, ExportStatus.Pending.name());
      statement.executeUpdate();
    }
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

  /** A target system's exports with this status, oldest first. */
  public List<PendingExportRow> findByStatus(
      Connection connection, String system, ExportStatus status) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            SELECT + " where pe.connected_system_id = ? and pe.status = ? order by pe.id")) {
      statement.setString(1, system);
      statement.setString(2, status.name());
      return rows(statement);
    }
  }

  /** Up to {@code limit} of a system's Pending exports after {@code afterId}, in id order. */
  public List<PendingExportRow> findPendingAfter(
      Connection connection, String system, long afterId, int limit) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            SELECT
                + " where pe.connected_system_id = ? and pe.status = ? and pe.id > ?"
                + " order by pe.id")) {
      statement.setString(1, system);
      statement.setString(2, ExportStatus.Pending.name());
      statement.setLong(3, afterId);
      statement.setMaxRows(limit);
      return rows(statement);
    }
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
    try (ResultSet rows = statement.executeQuery()) {
      List<PendingExportRow> result = new ArrayList<>();
      while (rows.next()) {
        result.add(
            new PendingExportRow(
                rows.getLong("id"),
                rows.getString("connected_system_id"),
                rows.getLong("cso_id"),
                rows.getString("anchor"),
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
