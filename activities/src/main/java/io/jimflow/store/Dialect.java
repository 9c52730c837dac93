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
}
