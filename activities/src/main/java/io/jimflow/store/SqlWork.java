package io.jimflow.store;

import java.sql.Connection;
import java.sql.SQLException;

/** Work done on one connection inside one transaction. */
@FunctionalInterface
public interface SqlWork<T> {
  T run(Connection connection) throws SQLException;
}
