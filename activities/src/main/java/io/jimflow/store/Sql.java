package io.jimflow.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;

/** Small JDBC helpers shared by the repositories. */
final class Sql {

  /** How many values one IN list carries; well below every driver's parameter limit. */
  static final int IN_CHUNK = 1000;

  private Sql() {}

  static void setInstant(PreparedStatement statement, int index, Instant instant)
      throws SQLException {
    if (instant == null) {
      statement.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
    } else {
      statement.setObject(index, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
    }
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

  static String placeholders(int count) {
    return String.join(",", Collections.nCopies(count, "?"));
  }

  /** The values in IN-list sized chunks; none for no values (an empty IN list is not SQL). */
  static <T> List<List<T>> chunks(List<T> values) {
    if (values.isEmpty()) {
      return List.of();
    }
    if (values.size() <= IN_CHUNK) {
      return List.of(values);
    }
    java.util.ArrayList<List<T>> chunks = new java.util.ArrayList<>();
    for (int from = 0; from < values.size(); from += IN_CHUNK) {
      chunks.add(values.subList(from, Math.min(values.size(), from + IN_CHUNK)));
    }
    return chunks;
  }
}
