package io.jimflow.schedule.steps;

import io.jimflow.schedule.ExecutablePaths;
import io.jimflow.schedule.StepDefinition.SqlScriptStep;
import io.jimflow.schedule.StepFailures;
import io.jimflow.secrets.SecretReference;
import io.jimflow.secrets.activities.Secrets;
import io.jimflow.store.sqlscript.SqlScriptFailure;
import io.jimflow.store.sqlscript.SqlScriptTransaction;
import io.temporal.client.ActivityCompletionException;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a SqlScript step: the script's statements one after the other on one of the worker's named
 * JDBC connections, in one transaction that is committed only when every statement succeeded
 * ({@link SqlScriptTransaction}).
 *
 * <p>The statements run on a thread of their own while the activity's thread heartbeats about every
 * second. When a heartbeat reports the step's cancellation (or its worker's stop), the running
 * statement is cancelled, the transaction rolled back and the cancellation passed on. Every
 * statement's query timeout is what is left of the attempt's time, so that the database itself
 * stops a statement that would outlast the step.
 */
public final class SqlScriptRunner {

  private static final Logger log = LoggerFactory.getLogger(SqlScriptRunner.class);

  /** Often enough that a cancellation reaches the statement within about a second. */
  static final Duration HEARTBEAT_EVERY = Duration.ofSeconds(1);

  /**
   * How long a cancelled or timed-out script may take to stop after its statement is cancelled
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

    long deadline = System.nanoTime() + timeout.toNanos();
    SqlScriptTransaction execution =
        new SqlScriptTransaction(
            step.path(),
            login.url(),
            login.properties(),
            statements.stream().map(SqlStatements.Statement::sql).toList(),
            deadline);
    Thread thread = new Thread(execution, "sql script " + step.path());
    thread.setDaemon(true);
    thread.start();
    try {
      while (!execution.awaitEnd(HEARTBEAT_EVERY)) {
        if (System.nanoTime() - deadline > HEARTBEAT_EVERY.toNanos()) {
          // The driver did not enforce the query timeout (or the deadline passed between two
          // statements): stop it ourselves.
          execution.markTimedOut();
          stop(execution, step);
          break;
        }
        progress.report(execution.completed(), statements.size(), null);
      }
    } catch (ActivityCompletionException e) {
      stop(execution, step);
      throw e;
    } catch (InterruptedException e) {
      stop(execution, step);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while '" + step.path() + "' ran", e);
    }
    RuntimeException failure = execution.failure();
    if (failure instanceof SqlScriptFailure fromDatabase) {
      throw stepFailure(fromDatabase, step, login, statements);
    }
    if (failure != null) {
      throw failure;
    }
    if (!execution.hasEnded()) {
      throw ApplicationFailure.newFailure(
          "'"
              + step.path()
              + "' ran longer than "
              + timeout
              + " and did not stop when cancelled; its connection was aborted, nothing was"
              + " committed",
          StepFailures.SQL_SCRIPT_TIMED_OUT);
    }
    if (!execution.committed()) {
      throw new IllegalStateException("'" + step.path() + "' ended without a commit");
    }
    return new Finished(statements.size(), execution.updatedRows());
  }

  /** Cancels the running statement until the script has rolled back, then gives up on it. */
  private static void stop(SqlScriptTransaction execution, SqlScriptStep step) {
    long giveUp = System.nanoTime() + CANCEL_GRACE.toNanos();
    try {
      do {
        execution.cancel();
      } while (!execution.awaitEnd(HEARTBEAT_EVERY) && System.nanoTime() - giveUp < 0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!execution.hasEnded()) {
      log.warn(
          "SQL script '{}' did not stop within {} of its cancellation; aborting its connection",
          step.path(),
          CANCEL_GRACE);
      execution.abort();
    }
  }

  /** The step's failure for what ended the script's transaction; nothing was committed. */
  private static RuntimeException stepFailure(
      SqlScriptFailure failure,
      SqlScriptStep step,
      Login login,
      List<SqlStatements.Statement> statements) {
    String state = failure.sqlState() == null ? "" : " (SQLSTATE " + failure.sqlState() + ")";
    if (failure.kind() == SqlScriptFailure.Kind.CONNECTION_FAILED) {
      return ApplicationFailure.newBuilder()
          .setMessage(
              "cannot run '"
                  + step.path()
                  + "' on '"
                  + login.connection()
                  + "': "
                  + failure.getMessage()
                  + state)
          .setType(StepFailures.SQL_SCRIPT_FAILED)
          .setNonRetryable(!failure.isTransient())
          .build();
    }
    int index = failure.statement();
    // nightly/purge.sql:12: statement 3 of 5: the script's line and the position.
    String where =
        step.path()
            + ":"
            + statements.get(index).line()
            + ": statement "
            + (index + 1)
            + " of "
            + statements.size();
    return switch (failure.kind()) {
      case CANCELLED ->
          new IllegalStateException(where + " was cancelled with its step; rolled back");
      case TIMED_OUT ->
          ApplicationFailure.newFailure(
              where
                  + " was cancelled when the attempt's time ran out; rolled back, nothing was"
                  + " committed",
              StepFailures.SQL_SCRIPT_TIMED_OUT);
      default ->
          ApplicationFailure.newBuilder()
              .setMessage(
                  where
                      + " failed on '"
                      + login.connection()
                      + "': "
                      + failure.getMessage()
                      + state
                      + "; rolled back, nothing was committed")
              .setType(StepFailures.SQL_SCRIPT_FAILED)
              .setNonRetryable(!failure.isTransient())
              .build();
    };
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
    if (!SqlScriptTransaction.hasDriverFor(url)) {
      throw configurationError(
          "connection '"
              + connection
              + "': no JDBC driver of this worker accepts its URL (the worker has PostgreSQL's)");
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
}
