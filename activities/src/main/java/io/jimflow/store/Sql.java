package io.jimflow.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Small JDBC helpers shared by the repositories. */
final class Sql {

  private Sql() {}

  static void setInstant(PreparedStatement statement, int index, Instant instant)
      throws SQLException {
    if (instant == null) {
      statement.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
    } else {
      statement.setObject(index, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
    }
  }

  /**
   * An instant as ISO-8601 text for an array of timestamps (cast back in SQL), or null: rounded
   * half up to microseconds, the columns' precision, as the drivers round a bound timestamp, so
   * both ways store the same instant.
   */
  static String timestampText(Instant instant) {
    return instant == null
        ? null
        : instant.plusNanos(500).truncatedTo(ChronoUnit.MICROS).toString();
  }

  static Instant getInstant(ResultSet resultSet, String column) throws SQLException {
    OffsetDateTime value = resultSet.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  static void setLongOrNull(PreparedStatement statement, int index, Long value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.BIGINT);
    } else {
      statement.setLong(index, value);
    }
  }

  static void setIntOrNull(PreparedStatement statement, int index, Integer value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.INTEGER);
    } else {
      statement.setInt(index, value);
    }
  }

  static Long getLongOrNull(ResultSet resultSet, String column) throws SQLException {
    long value = resultSet.getLong(column);
    return resultSet.wasNull() ? null : value;
  }

  /**
   * Binds ids as one array parameter, for {@code id = ANY(?)}: one statement text whatever the
   * count, so the database keeps one plan for it.
   */
  static void setLongs(PreparedStatement statement, int index, Collection<Long> values)
      throws SQLException {
    setArray(statement, index, "bigint", values);
  }

  /**
   * The rows of a page by id, each id once with its last row: one set-based statement may change a
   * row only once, and a batch of one statement per row would have left the last one.
   */
  static <K, T> Map<K, T> lastById(Collection<T> rows, Function<T, K> id) {
    Map<K, T> byId = new LinkedHashMap<>();
    for (T row : rows) {
      byId.put(id.apply(row), row);
    }
    return byId;
  }

  /** Binds strings as one array parameter, for {@code column = ANY(?)}. */
  static void setStrings(PreparedStatement statement, int index, Collection<String> values)
      throws SQLException {
    setArray(statement, index, "varchar", values);
  }

  private static void setArray(
      PreparedStatement statement, int index, String elementType, Collection<?> values)
      throws SQLException {
    statement.setArray(
        index, statement.getConnection().createArrayOf(elementType, values.toArray()));
  }

  /**
   * Runs an update or delete of the rows whose ids are in {@code ids}, as one statement: its last
   * parameter is the {@code = ANY(?)} array of ids. Runs nothing for no ids.
   *
   * @param binder sets the parameters before the ids
   * @return how many rows it changed
   */
  static int updateByIds(Connection connection, String sql, Collection<?> ids, Binder binder)
      throws SQLException {
    if (ids.isEmpty()) {
      return 0;
    }
    int idsIndex = (int) sql.chars().filter(c -> c == '?').count();
    Object first = ids.iterator().next();
    String elementType =
        first instanceof Long ? "bigint" : first instanceof Integer ? "integer" : "varchar";
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      setArray(statement, idsIndex, elementType, ids);
      return statement.executeUpdate();
    }
  }

  static String placeholders(int count) {
    return String.join(",", Collections.nCopies(count, "?"));
  }

  /** The first column of every row a query returns; {@code binder} sets its parameters. */
  static <T> List<T> column(Connection connection, String sql, Class<T> type, Binder binder)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      try (ResultSet rows = statement.executeQuery()) {
        List<T> values = new ArrayList<>();
        while (rows.next()) {
          // Object: whatever the driver maps the column to (ids handed back to deleteIn as they
          // are).
          values.add(type == Object.class ? type.cast(rows.getObject(1)) : rows.getObject(1, type));
        }
        return values;
      }
    }
  }

  /** {@code delete from table where column = ANY(ids)}; returns how many rows went. */
  static int deleteIn(Connection connection, String table, String column, Collection<?> ids)
      throws SQLException {
    return updateByIds(
        connection, "delete from " + table + " where " + column + " = ANY(?)", ids, s -> {});
  }

  /** Runs an insert, update or delete; returns how many rows it changed. */
  static int update(Connection connection, String sql, Binder binder) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      return statement.executeUpdate();
    }
  }

  /**
   * Deletes the first {@code limit} rows of a table that a filter selects, in the filter's order:
   * one short batch of a longer purge.
   *
   * @param filter the where and order by clauses, e.g. {@code where changed_at < ? order by id}
   */
  static int deleteBatch(
      Connection connection, String table, String filter, int limit, Binder binder)
      throws SQLException {
    String select = "select id from " + table + " " + filter + " limit " + Math.max(1, limit);
    return deleteIn(connection, table, "id", column(connection, select, Object.class, binder));
  }

  /**
   * Runs one statement for every row, in one JDBC batch; prepares nothing for no rows.
   *
   * @param binder sets the statement's parameters for one row
   */
  static <T> void batch(
      Connection connection, String sql, Collection<? extends T> rows, RowBinder<T> binder)
      throws SQLException {
    if (rows.isEmpty()) {
      return;
    }
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (T row : rows) {
        binder.bind(statement, row);
        statement.addBatch();
      }
      statement.executeBatch();
    }
  }

  /** Sets a statement's parameters for one row of a batch. */
  @FunctionalInterface
  interface RowBinder<T> {
    void bind(PreparedStatement statement, T row) throws SQLException;
  }

  /** Sets a statement's parameters. */
  @FunctionalInterface
  interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  /**
   * One statement that updates a page of rows of {@code table} by id from parallel arrays: {@code
   * arrays} are the array parameters' casts (the ids first), {@code columns} name them for {@code
   * set}, which reads them as {@code v.<column>}; the arrays' parameters come before those of
   * {@code set}. With a {@code condition} (over {@code t.<column>}, no parameters) only the rows
   * that also meet it change; with null every row does. MERGE would need PostgreSQL 15; UPDATE ...
   * FROM runs on every supported version.
   */
  static String updateByIdFromArrays(
      String table, String arrays, String columns, String set, String condition) {
    return "with v("
        + columns
        + ") as (select * from unnest("
        + arrays
        + ")) update "
        + table
        + " t set "
        + set
        + " from v where t.id = v.id"
        + (condition == null ? "" : " and " + condition);
  }
}
