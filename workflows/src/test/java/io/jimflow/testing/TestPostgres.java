package io.jimflow.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The test PostgreSQL: {@code JIMFLOW_TEST_POSTGRES_URL} (default {@code
 * jdbc:postgresql://localhost:5432/jimflow_test}), {@code JIMFLOW_TEST_POSTGRES_USER} and {@code
 * _PASSWORD} (default jimflow/jimflow); {@code scripts/start-test-postgres.sh} sets one up. Tests
 * and classes marked {@code @ExtendWith(TestPostgres.Required.class)} are skipped when none is
 * reachable, except under {@code CI=true}, where they run and fail.
 */
public final class TestPostgres {

  private static Optional<String> problem;

  private TestPostgres() {}

  public static String url() {
    return env("JIMFLOW_TEST_POSTGRES_URL", "jdbc:postgresql://localhost:5432/jimflow_test");
  }

  public static String user() {
    return env("JIMFLOW_TEST_POSTGRES_USER", "jimflow");
  }

  public static String password() {
    return env("JIMFLOW_TEST_POSTGRES_PASSWORD", "jimflow");
  }

  /** A new, empty schema of the test PostgreSQL; close it to drop the schema. */
  public static Schema newSchema() {
    String schema = "test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    try (Connection connection = DriverManager.getConnection(url(), user(), password());
        Statement statement = connection.createStatement()) {
      statement.execute("create schema " + schema);
    } catch (SQLException e) {
      fail(
          "PostgreSQL tests need a PostgreSQL at "
              + url()
              + " ("
              + e.getMessage()
              + "). Run scripts/start-test-postgres.sh or set JIMFLOW_TEST_POSTGRES_URL,"
              + " JIMFLOW_TEST_POSTGRES_USER and JIMFLOW_TEST_POSTGRES_PASSWORD.");
    }
    return new Schema(url(), user(), password(), schema);
  }

  /** A schema of the test PostgreSQL. */
  public record Schema(String url, String user, String password, String schema)
      implements AutoCloseable {

    /** The database URL with this schema as the current one. */
    public String schemaUrl() {
      return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    /** A connection whose current schema is this one. */
    public Connection connect() throws SQLException {
      return DriverManager.getConnection(schemaUrl(), user, password);
    }

    @Override
    public void close() throws SQLException {
      try (Connection connection = DriverManager.getConnection(url, user, password);
          Statement statement = connection.createStatement()) {
        statement.execute("drop schema " + schema + " cascade");
      }
    }
  }

  /**
   * Why the test PostgreSQL cannot be used, or empty when a connection succeeds (tried once per
   * test JVM).
   */
  public static synchronized Optional<String> problem() {
    if (problem == null) {
      try (Connection connection = DriverManager.getConnection(url(), user(), password())) {
        problem = Optional.empty();
      } catch (SQLException e) {
        problem = Optional.of("no PostgreSQL at " + url() + " (" + e.getMessage() + ")");
      }
    }
    return problem;
  }

  /** Runs a test or class only where the test PostgreSQL answers, and always under CI=true. */
  public static final class Required implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return Requirement.evaluate(
          "PostgreSQL tests",
          problem(),
          "scripts/start-test-postgres.sh, or point JIMFLOW_TEST_POSTGRES_URL, _USER and"
              + " _PASSWORD at a PostgreSQL");
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
