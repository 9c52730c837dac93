package io.jimflow.store;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The database a store runs on, for the few statements whose fastest form differs between the two
 * (the rest of the SQL is written once for both).
 */
enum Dialect {
  H2,
  POSTGRESQL;

  /** The dialect of the database behind a connection, from its metadata. */
  static Dialect of(Connection connection) throws SQLException {
    String product = connection.getMetaData().getDatabaseProductName();
    if ("H2".equalsIgnoreCase(product)) {
      return H2;
    }
    if ("PostgreSQL".equalsIgnoreCase(product)) {
      return POSTGRESQL;
    }
    throw new SQLException("unsupported database for the store: " + product);
  }

  /**
   * One statement that updates a page of rows of {@code table} by id from parallel arrays: {@code
   * arrays} are the array parameters' casts (the ids first), {@code columns} name them for {@code
   * set}, which reads them as {@code v.<column>}. The arrays' parameters come before those of
   * {@code set} in both forms.
   */
  String updateByIdFromArrays(String table, String arrays, String columns, String set) {
    return updateByIdFromArrays(table, arrays, columns, set, null);
  }

  /**
   * As {@link #updateByIdFromArrays(String, String, String, String)}, changing only the rows that
   * also meet {@code condition} (over {@code t.<column>}; no parameters, as the two forms place it
   * differently), or every row when it is null.
   */
  String updateByIdFromArrays(
      String table, String arrays, String columns, String set, String condition) {
    return switch (this) {
      // H2 has no UPDATE ... FROM.
      case H2 ->
          "merge into "
              + table
              + " t using unnest("
              + arrays
              + ") as v("
              + columns
              + ") on t.id = v.id when matched"
              + (condition == null ? "" : " and " + condition)
              + " then update set "
              + set;
      // MERGE would need PostgreSQL 15; UPDATE ... FROM runs on every supported version.
      case POSTGRESQL ->
          "with v("
              + columns
              + ") as (select * from unnest("
              + arrays
              + ")) update "
              + table
              + " t set "
              + set
              + " from v where t.id = v.id"
              + (condition == null ? "" : " and " + condition);
    };
  }
}
