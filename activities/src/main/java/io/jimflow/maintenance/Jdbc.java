package io.jimflow.maintenance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/** The few JDBC helpers the maintenance store needs. */
final class Jdbc {

  private Jdbc() {}

  static void setInstant(PreparedStatement statement, int index, Instant instant)
      throws SQLException {
    if (instant == null) {
      statement.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
    } else {
      statement.setObject(index, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
    }
  }

  static Instant getInstant(ResultSet rows, String column) throws SQLException {
    OffsetDateTime value = rows.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  static String placeholders(int count) {
    return String.join(",", Collections.nCopies(count, "?"));
  }

  /** Ids from a query whose parameters are set by {@code binder}; at most {@code limit}. */
  static List<Long> longIds(Connection connection, String sql, Binder binder) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      try (ResultSet rows = statement.executeQuery()) {
        List<Long> ids = new ArrayList<>();
        while (rows.next()) {
          ids.add(rows.getLong(1));
        }
        return ids;
      }
    }
  }

  static List<String> stringIds(Connection connection, String sql, Binder binder)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      try (ResultSet rows = statement.executeQuery()) {
        List<String> ids = new ArrayList<>();
        while (rows.next()) {
          ids.add(rows.getString(1));
        }
        return ids;
      }
    }
  }

  /** {@code delete from table where column in (ids)}; returns how many rows went. */
  static int deleteIn(Connection connection, String table, String column, Collection<?> ids)
      throws SQLException {
    if (ids.isEmpty()) {
      return 0;
    }
    try (PreparedStatement statement =
        connection.prepareStatement(
            "delete from "
                + table
                + " where "
                + column
                + " in ("
                + placeholders(ids.size())
                + ")")) {
      int i = 1;
      for (Object id : ids) {
        statement.setObject(i++, id);
      }
      return statement.executeUpdate();
    }
  }

  static int update(Connection connection, String sql, Binder binder) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      return statement.executeUpdate();
    }
  }

  /** Sets a statement's parameters. */
  @FunctionalInterface
  interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }
}
