package io.jimflow.store;

import static org.junit.jupiter.api.Assertions.fail;

import com.zaxxer.hikari.HikariDataSource;
import io.jimflow.testing.Requirement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Stores for tests: a fresh in-memory H2 database, or a fresh schema in the test PostgreSQL.
 *
 * <p>PostgreSQL: {@code JIMFLOW_TEST_POSTGRES_URL} (default {@code
 * jdbc:postgresql://localhost:5432/jimflow_test}), {@code JIMFLOW_TEST_POSTGRES_USER} and {@code
 * _PASSWORD} (default jimflow/jimflow); {@code scripts/start-test-postgres.sh} sets one up. Classes
 * marked {@code @ExtendWith(TestStores.RequiresPostgres.class)} are skipped when none is reachable,
 * except under {@code CI=true}, where they run and fail.
 */
public final class TestStores {

  private TestStores() {}

  public static Store h2() {
    return Store.open(
        new StoreSettings("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "", 4));
  }

  /** A store in a new schema of the test PostgreSQL; close it to drop the schema. */
  public static PostgresStore postgres() {
    PostgresSchema schema = postgresSchema();
    Store store =
        Store.open(new StoreSettings(schema.schemaUrl(), schema.user(), schema.password(), 4));
    return new PostgresStore(
        store, schema.url(), schema.user(), schema.password(), schema.schema());
  }

  /** A new, empty schema of the test PostgreSQL; close it to drop the schema. */
  public static PostgresSchema postgresSchema() {
    String url = postgresUrl();
    String user = env("JIMFLOW_TEST_POSTGRES_USER", "jimflow");
    String password = env("JIMFLOW_TEST_POSTGRES_PASSWORD", "jimflow");
    String schema = "test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    try (Connection connection = DriverManager.getConnection(url, user, password);
        Statement statement = connection.createStatement()) {
      statement.execute("create schema " + schema);
    } catch (SQLException e) {
      fail(
          "PostgreSQL tests need a PostgreSQL at "
              + url
              + " ("
              + e.getMessage()
              + "). Run scripts/start-test-postgres.sh or set JIMFLOW_TEST_POSTGRES_URL,"
              + " JIMFLOW_TEST_POSTGRES_USER and JIMFLOW_TEST_POSTGRES_PASSWORD.");
    }
    return new PostgresSchema(url, user, password, schema);
  }

  /** A schema of the test PostgreSQL. */
  public record PostgresSchema(String url, String user, String password, String schema)
      implements AutoCloseable {

    /** The database URL with this schema as the current one. */
    public String schemaUrl() {
      return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
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
  static synchronized Optional<String> postgresProblem() {
    if (postgresProblem == null) {
      String url = postgresUrl();
      try (Connection connection =
          DriverManager.getConnection(
              url,
              env("JIMFLOW_TEST_POSTGRES_USER", "jimflow"),
              env("JIMFLOW_TEST_POSTGRES_PASSWORD", "jimflow"))) {
        postgresProblem = Optional.empty();
      } catch (SQLException e) {
        postgresProblem = Optional.of("no PostgreSQL at " + url + " (" + e.getMessage() + ")");
      }
    }
    return postgresProblem;
  }

  private static Optional<String> postgresProblem;

  /** Runs a test class only where the test PostgreSQL answers, and always under {@code CI=true}. */
  public static final class RequiresPostgres implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return Requirement.evaluate(
          "PostgreSQL tests",
          postgresProblem(),
          "scripts/start-test-postgres.sh, or point JIMFLOW_TEST_POSTGRES_URL, _USER and"
              + " _PASSWORD at a PostgreSQL");
    }
  }

  private static String postgresUrl() {
    return env("JIMFLOW_TEST_POSTGRES_URL", "jdbc:postgresql://localhost:5432/jimflow_test");
  }

  /**
   * A store whose schema stops at an earlier migration, as an earlier release left it: its data
   * source, not migrated further. {@link Store#open} then brings it up to date, as a new release
   * does.
   */
  public static Store atVersion(StoreSettings settings, String version) {
    HikariDataSource pool = Store.pool(settings);
    Flyway.configure()
        .dataSource(pool)
        .locations("classpath:db/migration")
        .target(version)
        .load()
        .migrate();
    return new Store(pool);
  }

  /** A store in its own PostgreSQL schema. */
  public record PostgresStore(Store store, String url, String user, String password, String schema)
      implements AutoCloseable {
    @Override
    public void close() throws SQLException {
      store.close();
      new PostgresSchema(url, user, password, schema).close();
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
