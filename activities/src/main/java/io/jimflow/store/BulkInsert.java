package io.jimflow.store;

import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.postgresql.PGConnection;

/**
 * Inserts the rows of a page into one table in one go: {@code COPY … FROM STDIN (FORMAT csv)}
 * (docs/benchmarks.md, "What a first synchronisation writes per person, and why").
 *
 * <p>It runs on the caller's connection, inside its transaction: the rows commit with the page and
 * its checkpoint or not at all, and a violated constraint (a run item's sequence written twice, an
 * anchor taken) fails the whole insert, which rolls the page back.
 */
final class BulkInsert {

  /** Rows per COPY: bounds the text of one COPY when a caller hands over more than a page. */
  private static final int CHUNK = 5_000;

  /** What a column holds, and the Java value a row gives it. */
  enum Type {
    /** A {@code String}. */
    VARCHAR,
    /** A {@code Long}. */
    BIGINT,
    /** A {@code Boolean}. */
    BOOLEAN,
    /** An {@code Instant}, stored to the microsecond. */
    TIMESTAMP
  }

  /** A column the rows give a value. */
  record Column(String name, Type type) {}

  private final String table;
  private final List<Column> columns;

  /**
   * @param columns the columns each row gives a value for, in the order of a row's values; the
   *     table's defaults fill the others
   */
  BulkInsert(String table, Column... columns) {
    this.table = table;
    this.columns = List.of(columns);
  }

  /** This insert with more columns, whose values come after those of this one's in a row. */
  BulkInsert and(Column... more) {
    List<Column> all = new ArrayList<>(columns);
    all.addAll(List.of(more));
    return new BulkInsert(table, all.toArray(Column[]::new));
  }

  static Column varchar(String name) {
    return new Column(name, Type.VARCHAR);
  }

  static Column bigint(String name) {
    return new Column(name, Type.BIGINT);
  }

  static Column bool(String name) {
    return new Column(name, Type.BOOLEAN);
  }

  static Column timestamp(String name) {
    return new Column(name, Type.TIMESTAMP);
  }

  /**
   * Inserts the rows; each holds one value per column, in the columns' order, of the column's type
   * or null. Does nothing for no rows.
   */
  void insert(Connection connection, List<Object[]> rows) throws SQLException {
    if (rows.isEmpty()) {
      return;
    }
    for (List<Object[]> chunk : chunks(rows)) {
      copy(connection, columns, chunk);
    }
  }

  /**
   * Inserts the rows, as {@link #insert}, and returns the ids the table's identity column {@code
   * id} gave them, in the order of the rows, drawn from its sequence first.
   */
  long[] insertReturningIds(Connection connection, List<Object[]> rows) throws SQLException {
    long[] ids = new long[rows.size()];
    if (rows.isEmpty()) {
      return ids;
    }
    int done = 0;
    for (List<Object[]> chunk : chunks(rows)) {
      long[] drawn = drawIds(connection, chunk.size());
      List<Object[]> withIds = new ArrayList<>(chunk.size());
      for (int i = 0; i < chunk.size(); i++) {
        Object[] row = new Object[columns.size() + 1];
        row[0] = drawn[i];
        System.arraycopy(chunk.get(i), 0, row, 1, columns.size());
        withIds.add(row);
      }
      List<Column> withId = new ArrayList<>(columns.size() + 1);
      withId.add(bigint("id"));
      withId.addAll(columns);
      copy(connection, withId, withIds);
      System.arraycopy(drawn, 0, ids, done, drawn.length);
      done += chunk.size();
    }
    return ids;
  }

  private static String columnList(List<Column> of) {
    return of.stream().map(Column::name).collect(Collectors.joining(", "));
  }

  private long[] drawIds(Connection connection, int count) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select nextval(pg_get_serial_sequence(?, 'id')) from generate_series(1, ?)")) {
      statement.setString(1, table);
      statement.setInt(2, count);
      long[] ids = new long[count];
      try (ResultSet result = statement.executeQuery()) {
        for (int i = 0; i < count; i++) {
          result.next();
          ids[i] = result.getLong(1);
        }
      }
      return ids;
    }
  }

  private void copy(Connection connection, List<Column> of, List<Object[]> rows)
      throws SQLException {
    StringBuilder csv = new StringBuilder(rows.size() * 256);
    for (Object[] row : rows) {
      appendCsvRow(csv, row);
    }
    try {
      connection
          .unwrap(PGConnection.class)
          .getCopyAPI()
          .copyIn(
              "copy " + table + " (" + columnList(of) + ") from stdin (format csv)",
              new StringReader(csv.toString()));
    } catch (IOException e) {
      throw new SQLException("COPY into " + table + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * One row of {@code COPY … (FORMAT csv)}: NULL is an empty unquoted field, so every string is
   * quoted (an empty string as {@code ""}), with its quotes doubled; in CSV a backslash is an
   * ordinary character and a quoted field may span lines.
   */
  static void appendCsvRow(StringBuilder csv, Object[] row) {
    for (int i = 0; i < row.length; i++) {
      if (i > 0) {
        csv.append(',');
      }
      Object value = row[i];
      if (value instanceof String text) {
        csv.append('"');
        for (int c = 0; c < text.length(); c++) {
          char ch = text.charAt(c);
          if (ch == '"') {
            csv.append('"');
          }
          csv.append(ch);
        }
        csv.append('"');
      } else if (value instanceof Instant instant) {
        csv.append(Sql.timestampText(instant));
      } else if (value != null) {
        csv.append(value);
      }
    }
    csv.append('\n');
  }

  private static List<List<Object[]>> chunks(List<Object[]> rows) {
    if (rows.size() <= CHUNK) {
      return List.of(rows);
    }
    List<List<Object[]>> chunks = new ArrayList<>();
    for (int from = 0; from < rows.size(); from += CHUNK) {
      chunks.add(rows.subList(from, Math.min(rows.size(), from + CHUNK)));
    }
    return chunks;
  }
}
