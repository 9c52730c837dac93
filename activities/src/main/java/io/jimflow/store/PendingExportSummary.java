package io.jimflow.store;

import io.jimflow.sync.ExportChange;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a system's Pending exports up to an id would change, for {@link PendingExports}: their
 * number by change, and the first of one change with their values now and after.
 */
final class PendingExportSummary {

  private PendingExportSummary() {}

  /** A system's Pending exports with ids up to {@code upToId}, counted by change. */
  static Map<ExportChange, Long> countPendingByChange(
      Connection connection, String system, long upToId) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select change_type, count(*) from pending_export"
                + " where connected_system_id = ? and status = ? and id <= ? group by change_type")) {
      statement.setString(1, system);
      statement.setString(2, ExportStatus.Pending.name());
      statement.setLong(3, upToId);
      Map<ExportChange, Long> counts = new EnumMap<>(ExportChange.class);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          counts.put(ExportChange.valueOf(rows.getString(1)), rows.getLong(2));
        }
      }
      return counts;
    }
  }

  /**
   * The first {@code limit} Pending exports of this change, in id order: each object's anchor, the
   * values its CSO holds now and the values the export asks for.
   */
  static List<PendingExports.PendingSample> samplePending(
      Connection connection, String system, ExportChange change, long upToId, int limit)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select c.anchor, c.attributes, pe.attributes from pending_export pe"
                + " join cso c on c.id = pe.cso_id"
                + " where pe.connected_system_id = ? and pe.status = ? and pe.id <= ?"
                + " and pe.change_type = ? order by pe.connected_system_id, pe.status, pe.id"
                + " limit ?")) {
      statement.setString(1, system);
      statement.setString(2, ExportStatus.Pending.name());
      statement.setLong(3, upToId);
      statement.setString(4, change.name());
      statement.setInt(5, limit);
      List<PendingExports.PendingSample> samples = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          samples.add(
              new PendingExports.PendingSample(
                  change,
                  rows.getString(1),
                  AttributesJson.read(rows.getString(2)),
                  AttributesJson.read(rows.getString(3))));
        }
      }
      return samples;
    }
  }
}
