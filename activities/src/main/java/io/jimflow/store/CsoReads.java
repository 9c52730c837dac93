package io.jimflow.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads of the connector space for {@link ConnectorSpace}: maps cso rows, pages through a system's
 * CSOs by id windows and counts them.
 */
final class CsoReads {

  /**
   * Every column but the attributes: for callers that never look at a CSO's attributes, so its JSON
   * is neither read nor sent.
   */
  private static final String WITHOUT_ATTRIBUTES =
      "id, connected_system_id, object_type, anchor, content_hash, state, mvo_id, join_type,"
          + " sync_pending, last_seen_run";

  private CsoReads() {}

  /** See {@link ConnectorSpace#findSummariesByAnchors}. */
  static Map<String, ConnectorSpace.CsoSummary> summariesByAnchors(
      Connection connection, String system, String objectType, Collection<String> anchors)
      throws SQLException {
    Map<String, ConnectorSpace.CsoSummary> found = new HashMap<>();
    if (anchors.isEmpty()) {
      return found;
    }
    // As in findByAnchors, only the anchor goes into SQL.
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select id, anchor, content_hash, state, mvo_id, last_seen_run, connected_system_id,"
                + " object_type from cso where anchor = ANY(?)")) {
      Sql.setStrings(statement, 1, anchors);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          if (rows.getString(7).equals(system) && rows.getString(8).equals(objectType)) {
            found.put(
                rows.getString(2),
                new ConnectorSpace.CsoSummary(
                    rows.getLong(1),
                    rows.getString(2),
                    rows.getString(3),
                    CsoState.valueOf(rows.getString(4)),
                    rows.getString(5),
                    rows.getString(6)));
          }
        }
      }
    }
    return found;
  }

  /** See {@link ConnectorSpace#countNotSeen}. */
  static ConnectorSpace.AbsentCount countNotSeen(Connection connection, String system, String runId)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select count(*), coalesce(sum(case when last_seen_run is null or last_seen_run <> ?"
                + " then 1 else 0 end), 0) from cso where connected_system_id = ? and state = ?")) {
      statement.setString(1, runId);
      statement.setString(2, system);
      statement.setString(3, CsoState.Normal.name());
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return new ConnectorSpace.AbsentCount(rows.getLong(1), rows.getLong(2));
      }
    }
  }

  /**
   * Pages through a system's CSOs by windows of ids: a bounded id range reads only its window.
   * Windows without a match are skipped until the highest id.
   */
  static List<CsoRow> page(
      Connection connection,
      boolean withAttributes,
      String condition,
      List<String> arguments,
      long afterId,
      int limit)
      throws SQLException {
    long highest;
    try (PreparedStatement statement = connection.prepareStatement("select max(id) from cso");
        ResultSet rows = statement.executeQuery()) {
      rows.next();
      highest = rows.getLong(1);
    }
    String sql =
        "select "
            + (withAttributes ? "*" : WITHOUT_ATTRIBUTES)
            + " from cso where connected_system_id = ? and id > ? and id <= ?"
            + condition
            + " order by id";
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (long from = afterId; from < highest; from += limit) {
        statement.setString(1, arguments.get(0));
        statement.setLong(2, from);
        statement.setLong(3, from + limit);
        for (int i = 1; i < arguments.size(); i++) {
          statement.setString(3 + i, arguments.get(i));
        }
        List<CsoRow> found = rows(statement, withAttributes);
        if (!found.isEmpty()) {
          return found;
        }
      }
    }
    return List.of();
  }

  /** See {@link ConnectorSpace#joinsAfter}. */
  static List<ConnectorSpace.Join> joinsAfter(
      Connection connection, String system, long afterId, int limit) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select id, mvo_id from cso where connected_system_id = ? and id > ?"
                + " and mvo_id is not null order by id limit "
                + limit)) {
      statement.setString(1, system);
      statement.setLong(2, afterId);
      try (ResultSet rows = statement.executeQuery()) {
        List<ConnectorSpace.Join> joins = new ArrayList<>();
        while (rows.next()) {
          joins.add(new ConnectorSpace.Join(rows.getLong(1), rows.getString(2)));
        }
        return joins;
      }
    }
  }

  static long count(Connection connection, String system) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("select count(*) from cso where connected_system_id = ?")) {
      statement.setString(1, system);
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }

  static long countSyncPending(Connection connection, String system) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select count(*) from cso where connected_system_id = ? and sync_pending = true")) {
      statement.setString(1, system);
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }

  /**
   * The CSOs a query selects; without attributes when it does not select them (their JSON then
   * stays null, and {@link CsoRow#attributes()} refuses).
   */
  static List<CsoRow> rows(PreparedStatement statement, boolean withAttributes)
      throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      List<CsoRow> result = new ArrayList<>();
      while (rows.next()) {
        result.add(
            new CsoRow(
                rows.getLong("id"),
                rows.getString("connected_system_id"),
                rows.getString("object_type"),
                rows.getString("anchor"),
                withAttributes ? rows.getString("attributes") : null,
                rows.getString("content_hash"),
                CsoState.valueOf(rows.getString("state")),
                rows.getString("mvo_id"),
                rows.getString("join_type"),
                rows.getBoolean("sync_pending"),
                rows.getString("last_seen_run")));
      }
      return result;
    }
  }
}
