package io.jimflow.store;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The open transaction of one unit of work (a page of a run and its checkpoint): the repositories
 * read and write through it, so what they do commits together or not at all. Code outside the store
 * hands the connection on to repositories and never uses it itself.
 */
public final class Transaction {

  private final Connection connection;

  Transaction(Connection connection) {
    this.connection = connection;
  }

  /** Work of a caller outside the store, run by {@link Store#transact}. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Transaction transaction);
  }

  /** Repository writes that return nothing. */
  @FunctionalInterface
  public interface SqlAction {
    void run(Connection connection) throws SQLException;
  }

  /** What the repository calls in {@code work} return, read in this transaction. */
  public <T> T get(SqlWork<T> work) {
    try {
      return work.run(connection);
    } catch (SQLException e) {
      throw new Failure(e);
    }
  }

  /** Runs repository writes in this transaction. */
  public void run(SqlAction action) {
    get(
        c -> {
          action.run(c);
          return null;
        });
  }

  /**
   * Carries a driver failure out of the caller's work to {@link Store#transact}, which rolls the
   * transaction back and reports it like any other failed transaction.
   */
  static final class Failure extends RuntimeException {
    Failure(SQLException cause) {
      super(cause);
    }

    SQLException sqlCause() {
      return (SQLException) getCause();
    }
  }
}
