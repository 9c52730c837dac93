package io.jimflow.steps;

import io.jimflow.schedule.ExecutablePaths;
import io.jimflow.schedule.StepDefinition.SqlScriptStep;
import io.jimflow.schedule.StepFailures;
import io.jimflow.secrets.SecretReference;
import io.jimflow.secrets.Secrets;
import io.temporal.client.ActivityCompletionException;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a SqlScript step: the script's statements one after the other on one of the worker's named
 * JDBC connections, in one transaction that is committed only when every statement succeeded.
 *
 * <p>The statements run on a thread of their own while the activity's thread heartbeats about every
 * second. When a heartbeat reports the step's cancellation (or its worker's stop), the running
 * statement is cancelled with {@link Statement#cancel()}, the transaction rolled back and the
 * cancellation passed on. Every statement gets {@link Statement#setQueryTimeout} set to what is
 * left of the attempt's time, so that the database itself stops a statement that would outlast the
 * step.
 */
public final class SqlScriptRunner {

  private static final Logger log = LoggerFactory.getLogger(SqlScriptRunner.class);

  /** Often enough that a cancellation reaches the statement within about a second. */
  static final Duration HEARTBEAT_EVERY = Duration.ofSeconds(1);

  /**
   * How long a cancelled or timed-out script may take to stop after {@link Statement#cancel()}
   * (repeated every second) before its connection is aborted.
   */
  static final Duration CANCEL_GRACE = Duration.ofSeconds(10);

  private final Optional<SqlScriptsConfig> config;
  private final String unconfigured;
  private final Secrets secrets;

  private SqlScriptRunner(Optional<SqlScriptsConfig> config, String unconfigured, Secrets secrets) {
    this.config = config;
    this.unconfigured = unconfigured;
    this.secrets = secrets;
  }

  /**
   * A runner for the scripts and connections of {@code config}.
   *
   * @param secrets the worker's secrets: each connection's URL, user and password
   */
  public static SqlScriptRunner of(SqlScriptsConfig config, Secrets secrets) {
    return new SqlScriptRunner(Optional.of(config), null, secrets);
  }

  /**
   * A runner that refuses every SqlScript step as a configuration error.
   *
   * @param why what the worker is missing, e.g. "this worker has no config/sql-scripts.yaml"
   */
  public static SqlScriptRunner unconfigured(String why) {
    return new SqlScriptRunner(Optional.empty(), why, Secrets.none());
  }

  /** How a script ended when it was committed. */
  public record Finished(int statements, long updatedRows) {}

  /**
   * Runs the script and commits it, heartbeating through {@code progress} (statements done of all).
   *
   * @param timeout what the attempt may take; statements are cancelled once it has passed
   * @throws ApplicationFailure of type {@link StepFailures#CONFIGURATION_ERROR} when the step
   *     cannot run as defined, {@link StepFailures#SQL_SCRIPT_FAILED} when a statement failed,
   *     {@link StepFailures#SQL_SCRIPT_TIMED_OUT} when the time ran out; in each case nothing is
   *     committed
   * @throws ActivityCompletionException when the step was cancelled (after the rollback)
   */
  public Finished run(SqlScriptStep step, StepProgress progress, Duration timeout) {
    SqlScriptsConfig scripts =
        config.orElseThrow(() -> configurationError("SqlScript steps cannot run: " + unconfigured));
    String connectionName = step.connection();
    if (connectionName == null || !scripts.connections().contains(connectionName)) {
      throw configurationError(
          "connection '"
              + connectionName
              + "' is not in "
              + scripts.file()
              + " (known: "
              + (scripts.connections().isEmpty()
                  ? "none"
                  : String.join(", ", scripts.connections()))
              + ")");
    }
    Path script = scriptFile(scripts.root(), step.path());
    List<SqlStatements.Statement> statements = statements(script, step.path());
    Login login = login(connectionName);

    Execution execution =
        new Execution(step, login, statements, System.nanoTime() + timeout.toNanos());
    Thread thread = new Thread(execution, "sql script " + step.path());
    thread.setDaemon(true);
    thread.start();
    try {
      while (!execution.done.await(HEARTBEAT_EVERY.toMillis(), TimeUnit.MILLISECONDS)) {
        if (System.nanoTime() - execution.deadline > HEARTBEAT_EVERY.toNanos()) {
          // The driver did not enforce the query timeout (or the deadline passed between two
          // statements): stop it ourselves.
          execution.timedOut = true;
          stop(execution);
          break;
        }
        progress.report(execution.completed, statements.size(), null);
      }
    } catch (ActivityCompletionException e) {
      stop(execution);
      throw e;
    } catch (InterruptedException e) {
      stop(execution);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while '" + step.path() + "' ran", e);
    }
    if (execution.failure != null) {
      throw execution.failure;
    }
    if (execution.done.getCount() > 0) {
      throw ApplicationFailure.newFailure(
          "'"
              + step.path()
              + "' ran longer than "
              + timeout
              + " and did not stop when cancelled; its connection was aborted, nothing was"
              + " committed",
          StepFailures.SQL_SCRIPT_TIMED_OUT);
    }
    if (!execution.committed) {
      throw new IllegalStateException("'" + step.path() + "' ended without a commit");
    }
    return new Finished(statements.size(), execution.updatedRows);
  }

  /** Cancels the running statement until the script has rolled back, then gives up on it. */
  private static void stop(Execution execution) {
    long giveUp = System.nanoTime() + CANCEL_GRACE.toNanos();
    try {
      do {
        execution.cancel();
      } while (!execution.done.await(HEARTBEAT_EVERY.toMillis(), TimeUnit.MILLISECONDS)
          && System.nanoTime() - giveUp < 0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (execution.done.getCount() > 0) {
      log.warn(
          "SQL script '{}' did not stop within {} of its cancellation; aborting its connection",
          execution.step.path(),
          CANCEL_GRACE);
      execution.abort();
    }
  }

  private static Path scriptFile(Path root, String relative) {
    ExecutablePaths.scriptProblem(relative)
        .ifPresent(
            problem -> {
              throw configurationError("path " + problem);
            });
    Path realRoot;
    try {
      realRoot = root.toRealPath();
    } catch (IOException e) {
      throw configurationError("the scripts root '" + root + "' does not exist on this worker");
    }
    Path real;
    try {
      real = realRoot.resolve(relative).toRealPath();
    } catch (IOException e) {
      throw configurationError(
          "script '" + relative + "' does not exist below the scripts root " + realRoot);
    }
    if (!real.startsWith(realRoot)) {
      throw configurationError("script '" + relative + "' leads outside the scripts root");
    }
    if (!Files.isRegularFile(real)) {
      throw configurationError("script '" + relative + "' is not a file");
    }
    return real;
  }

  private static List<SqlStatements.Statement> statements(Path script, String relative) {
    String text;
    try {
      text = Files.readString(script);
    } catch (CharacterCodingException e) {
      throw configurationError("script '" + relative + "' is not UTF-8 text");
    } catch (IOException e) {
      throw configurationError("script '" + relative + "' cannot be read: " + e.getMessage());
    }
    List<SqlStatements.Statement> statements;
    try {
      statements = SqlStatements.split(text);
    } catch (SqlStatements.UnterminatedException e) {
      throw configurationError(relative + ":" + e.line() + ": " + e.getMessage());
    }
    if (statements.isEmpty()) {
      throw configurationError("script '" + relative + "' has no statement");
    }
    return statements;
  }

  private record Login(String connection, String url, Properties properties) {}

  private Login login(String connection) {
    String url;
    try {
      url = secrets.resolve(SqlScriptsConfig.urlSecret(connection).toString());
    } catch (ApplicationFailure e) {
      throw configurationError(
          "connection '"
              + connection
              + "' has no URL on this worker: "
              + e.getOriginalMessage()
              + "; give it as "
              + SqlScriptsConfig.urlSecret(connection).environmentVariable()
              + " or a file '"
              + SqlScriptsConfig.urlSecret(connection).name()
              + "' in the secrets folder");
    }
    try {
      DriverManager.getDriver(url);
    } catch (SQLException e) {
      throw configurationError(
          "connection '"
              + connection
              + "': no JDBC driver of this worker accepts its URL (the worker has H2's and"
              + " PostgreSQL's)");
    }
    Properties properties = new Properties();
    optionalSecret(SqlScriptsConfig.userSecret(connection))
        .ifPresent(user -> properties.setProperty("user", user));
    optionalSecret(SqlScriptsConfig.passwordSecret(connection))
        .ifPresent(password -> properties.setProperty("password", password));
    return new Login(connection, url, properties);
  }

  private Optional<String> optionalSecret(SecretReference reference) {
    try {
      return Optional.of(secrets.resolve(reference.toString()));
    } catch (ApplicationFailure e) {
      if (Secrets.UNKNOWN_SECRET.equals(e.getType())) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private static ApplicationFailure configurationError(String message) {
    return ApplicationFailure.newNonRetryableFailure(message, StepFailures.CONFIGURATION_ERROR);
  }

  /** The statements on their own thread; the activity's thread watches, cancels and reads. */
  private static final class Execution implements Runnable {
    private final SqlScriptStep step;
    private final Login login;
    private final List<SqlStatements.Statement> statements;
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

    Execution(
        SqlScriptStep step, Login login, List<SqlStatements.Statement> statements, long deadline) {
      this.step = step;
      this.login = login;
      this.statements = statements;
      this.deadline = deadline;
    }

    @Override
    public void run() {
      try (Connection opened = DriverManager.getConnection(login.url(), login.properties())) {
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
        failure = connectionFailure(e);
      } catch (RuntimeException e) {
        failure = e;
      } finally {
        done.countDown();
      }
    }

    private void execute(Connection opened) throws SQLException {
      long rows = 0;
      for (int i = 0; i < statements.size(); i++) {
        SqlStatements.Statement statement = statements.get(i);
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw timedOut(statement, i);
        }
        try (Statement jdbc = opened.createStatement()) {
          synchronized (lock) {
            if (cancelled) {
              throw stopped(statement, i);
            }
            running = jdbc;
          }
          jdbc.setQueryTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toSeconds(left - 1) + 1));
          rows += updateCount(jdbc, jdbc.execute(statement.sql()));
        } catch (SQLException e) {
          throw statementFailure(e, statement, i);
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

    void cancel() {
      Statement statement;
      synchronized (lock) {
        cancelled = true;
        statement = running;
      }
      if (statement != null) {
        try {
          statement.cancel();
        } catch (SQLException e) {
          log.debug("Could not cancel a statement of '{}'", step.path(), e);
        }
      }
    }

    void abort() {
      Connection opened;
      synchronized (lock) {
        opened = connection;
      }
      if (opened != null) {
        try {
          opened.abort(Runnable::run);
        } catch (SQLException | RuntimeException e) {
          log.debug("Could not abort the connection of '{}'", step.path(), e);
        }
      }
    }

    private boolean wasCancelled() {
      synchronized (lock) {
        return cancelled;
      }
    }

    private RuntimeException statementFailure(
        SQLException e, SqlStatements.Statement statement, int index) {
      if (wasCancelled() && !timedOut) {
        return stopped(statement, index);
      }
      if (timedOut || e instanceof SQLTimeoutException || isQueryCancel(e)) {
        return timedOut(statement, index);
      }
      String state = e.getSQLState();
      return ApplicationFailure.newBuilder()
          .setMessage(
              where(statement, index)
                  + " failed on '"
                  + login.connection()
                  + "': "
                  + e.getMessage()
                  + (state == null ? "" : " (SQLSTATE " + state + ")")
                  + "; rolled back, nothing was committed")
          .setType(StepFailures.SQL_SCRIPT_FAILED)
          .setNonRetryable(!transientState(state))
          .build();
    }

    private RuntimeException timedOut(SqlStatements.Statement statement, int index) {
      return ApplicationFailure.newFailure(
          where(statement, index)
              + " was cancelled when the attempt's time ran out; rolled back, nothing was"
              + " committed",
          StepFailures.SQL_SCRIPT_TIMED_OUT);
    }

    private RuntimeException stopped(SqlStatements.Statement statement, int index) {
      return new IllegalStateException(
          where(statement, index) + " was cancelled with its step; rolled back");
    }

    /** {@code nightly/purge.sql:12: statement 3 of 5}: the script's line and the position. */
    private String where(SqlStatements.Statement statement, int index) {
      return step.path()
          + ":"
          + statement.line()
          + ": statement "
          + (index + 1)
          + " of "
          + statements.size();
    }

    private RuntimeException connectionFailure(SQLException e) {
      String state = e.getSQLState();
      return ApplicationFailure.newBuilder()
          .setMessage(
              "cannot run '"
                  + step.path()
                  + "' on '"
                  + login.connection()
                  + "': "
                  + e.getMessage()
                  + (state == null ? "" : " (SQLSTATE " + state + ")"))
          .setType(StepFailures.SQL_SCRIPT_FAILED)
          .setNonRetryable(!transientState(state))
          .build();
    }

    /** SQLSTATE 57014: the statement was cancelled (by its query timeout or by us). */
    private static boolean isQueryCancel(SQLException e) {
      return "57014".equals(e.getSQLState());
    }

    /** A deadlock or serialization failure (40), a lost connection (08): a retry may succeed. */
    private static boolean transientState(String state) {
      return state != null && (state.startsWith("40") || state.startsWith("08"));
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
}
