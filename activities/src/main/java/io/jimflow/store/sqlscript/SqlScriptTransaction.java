package io.jimflow.store.sqlscript;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A script's statements run through JDBC on a database of the user's, one after the other in one
 * transaction that is committed only when every statement succeeded.
 *
 * <p>It runs on a thread of its own ({@link #run()}) while another thread watches it: that thread
 * may {@link #cancel()} the running statement (with {@link Statement#cancel()}) or {@link #abort()}
 * the connection. Every statement gets {@link Statement#setQueryTimeout} set to what is left until
 * the deadline, so that the database itself stops a statement that would outlast it. A failure
 * rolls back and is reported by {@link #failure()}, as a {@link SqlScriptFailure} when it came from
 * the database.
 */
public final class SqlScriptTransaction implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(SqlScriptTransaction.class);

  private final String name;
  private final String url;
  private final Properties properties;
  private final List<String> statements;
  private final long deadline;
  private final CountDownLatch done = new CountDownLatch(1);
  private final Object lock = new Object();
  private volatile int completed;
  private volatile long updatedRows;
  private volatile boolean timedOut;
  private volatile boolean committed;
  private volatile RuntimeException failure;
  private boolean cancelled;
  private Connection connection;
  private Statement running;

  /**
   * @param name what log lines call the script, e.g. its path
   * @param properties the driver's connection properties (user, password)
   * @param deadline the {@link System#nanoTime()} by which the script must have ended
   */
  public SqlScriptTransaction(
      String name, String url, Properties properties, List<String> statements, long deadline) {
    this.name = name;
    this.url = url;
    this.properties = properties;
    this.statements = List.copyOf(statements);
    this.deadline = deadline;
  }

  /** Whether a JDBC driver of this JVM accepts the URL. */
  public static boolean hasDriverFor(String url) {
    try {
      DriverManager.getDriver(url);
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  @Override
  public void run() {
    try (Connection opened = DriverManager.getConnection(url, properties)) {
      synchronized (lock) {
        connection = opened;
      }
      opened.setAutoCommit(false);
      try {
        execute(opened);
        opened.commit();
        committed = true;
      } catch (SQLException | RuntimeException e) {
        rollback(opened);
        throw e;
      }
    } catch (SQLException e) {
      failure = SqlScriptFailure.connection(e);
    } catch (RuntimeException e) {
      failure = e;
    } finally {
      done.countDown();
    }
  }

  private void execute(Connection opened) throws SQLException {
    long rows = 0;
    for (int i = 0; i < statements.size(); i++) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw SqlScriptFailure.timedOut(i);
      }
      try (Statement jdbc = opened.createStatement()) {
        synchronized (lock) {
          if (cancelled) {
            throw SqlScriptFailure.cancelled(i);
          }
          running = jdbc;
        }
        jdbc.setQueryTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toSeconds(left - 1) + 1));
        rows += updateCount(jdbc, jdbc.execute(statements.get(i)));
      } catch (SQLException e) {
        throw statementFailure(e, i);
      } finally {
        synchronized (lock) {
          running = null;
        }
      }
      completed = i + 1;
      updatedRows = rows;
    }
  }

  /** Rows that the statement's results report as changed (a query reports none). */
  private static long updateCount(Statement jdbc, boolean resultSet) throws SQLException {
    long rows = 0;
    boolean isResultSet = resultSet;
    while (true) {
      if (!isResultSet) {
        int count = jdbc.getUpdateCount();
        if (count == -1) {
          return rows;
        }
        rows += count;
      }
      isResultSet = jdbc.getMoreResults();
    }
  }

  private SqlScriptFailure statementFailure(SQLException e, int index) {
    if (wasCancelled() && !timedOut) {
      return SqlScriptFailure.cancelled(index);
    }
    if (timedOut || e instanceof SQLTimeoutException || isQueryCancel(e)) {
      return SqlScriptFailure.timedOut(index);
    }
    return SqlScriptFailure.statement(index, e);
  }

  /** SQLSTATE 57014: the statement was cancelled (by its query timeout or by us). */
  private static boolean isQueryCancel(SQLException e) {
    return "57014".equals(e.getSQLState());
  }

  /** Waits up to {@code timeout} for the script to end; whether it has. */
  public boolean awaitEnd(Duration timeout) throws InterruptedException {
    return done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  public boolean hasEnded() {
    return done.getCount() == 0;
  }

  /** Statements done so far. */
  public int completed() {
    return completed;
  }

  /** Rows changed by the statements done so far. */
  public long updatedRows() {
    return updatedRows;
  }

  /** Whether the transaction was committed. */
  public boolean committed() {
    return committed;
  }

  /** Why the script ended without (or after) its commit; null when nothing failed. */
  public RuntimeException failure() {
    return failure;
  }

  /**
   * Tells the script that its time ran out, so a statement that now fails (cancelled) counts as
   * timed out rather than cancelled.
   */
  public void markTimedOut() {
    timedOut = true;
  }

  /** Cancels the running statement and every later one. */
  public void cancel() {
    Statement statement;
    synchronized (lock) {
      cancelled = true;
      statement = running;
    }
    if (statement != null) {
      try {
        statement.cancel();
      } catch (SQLException e) {
        log.debug("Could not cancel a statement of '{}'", name, e);
      }
    }
  }

  /** Aborts the connection: the last resort for a statement that does not stop when cancelled. */
  public void abort() {
    Connection opened;
    synchronized (lock) {
      opened = connection;
    }
    if (opened != null) {
      try {
        opened.abort(Runnable::run);
      } catch (SQLException | RuntimeException e) {
        log.debug("Could not abort the connection of '{}'", name, e);
      }
    }
  }

  private boolean wasCancelled() {
    synchronized (lock) {
      return cancelled;
    }
  }

  private static void rollback(Connection opened) {
    try {
      opened.rollback();
    } catch (SQLException e) {
      // Closing the connection without commit discards the transaction as well.
      log.debug("Rollback failed", e);
    }
  }
}
