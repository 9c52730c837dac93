package io.jimflow.schedule.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jimflow.schedule.StepDefinition.SqlScriptStep;
import io.jimflow.schedule.StepFailures;
import io.jimflow.secrets.activities.WorkerSecrets;
import io.jimflow.testing.TestPostgres;
import io.temporal.failure.ApplicationFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** SqlScript steps on the test PostgreSQL, and the worker's own checks of a step. */
class SqlScriptRunnerPostgresTest extends SqlScriptRunnerContract {

  private final TestPostgres.Schema schema = TestPostgres.newSchema();

  @AfterEach
  void dropSchema() throws SQLException {
    schema.close();
  }

  @Override
  String url() {
    return schema.schemaUrl();
  }

  @Override
  String user() {
    return schema.user();
  }

  @Override
  String password() {
    return schema.password();
  }

  @Override
  String longStatement(String marker) {
    return "select pg_sleep(120) as " + marker;
  }

  @Override
  String duplicateKeyMessage() {
    return "duplicate key value violates unique constraint";
  }

  @Override
  long runningStatements(String marker) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url(), user(), password());
        PreparedStatement statement =
            connection.prepareStatement(
                "select count(*) from pg_stat_activity where state = 'active'"
                    + " and pid <> pg_backend_pid() and query like ?")) {
      statement.setString(1, "%" + marker + "%");
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }

  @Test
  void anUnknownConnectionIsAConfigurationErrorNamingTheKnownOnes() throws Exception {
    script("tidy.sql", "select 1;");

    ApplicationFailure failure = run(new SqlScriptStep("crm", "tidy.sql"));

    assertThat(failure.getType()).isEqualTo(StepFailures.CONFIGURATION_ERROR);
    assertThat(failure.isNonRetryable()).isTrue();
    assertThat(failure.getOriginalMessage())
        .isEqualTo(
            "connection 'crm' is not in " + root.resolve("sql-scripts.yaml") + " (known: db)");
  }

  @Test
  void aMissingScriptOrOneOutsideTheScriptsRootIsAConfigurationError() throws Exception {
    Path outside = Files.writeString(root.resolveSibling(UUID.randomUUID() + ".sql"), "select 1;");
    Files.createSymbolicLink(root.resolve("link.sql"), outside);
    try {
      assertThat(run(new SqlScriptStep("db", "nope.sql")).getOriginalMessage())
          .startsWith("script 'nope.sql' does not exist below the scripts root");
      assertThat(run(new SqlScriptStep("db", "../x.sql")).getOriginalMessage())
          .isEqualTo("path '../x.sql' leaves the scripts root (root in sql-scripts.yaml)");
      assertThat(run(new SqlScriptStep("db", "link.sql")).getOriginalMessage())
          .isEqualTo("script 'link.sql' leads outside the scripts root");
    } finally {
      Files.delete(outside);
    }
  }

  @Test
  void anUnclosedLiteralIsAConfigurationErrorWithTheScriptsLine() throws Exception {
    script("broken.sql", "select 1;\nselect 'oops;\n");

    ApplicationFailure failure = run(new SqlScriptStep("db", "broken.sql"));

    assertThat(failure.getType()).isEqualTo(StepFailures.CONFIGURATION_ERROR);
    assertThat(failure.getOriginalMessage())
        .isEqualTo("broken.sql:2: a string literal starting on line 2 is never closed");
  }

  @Test
  void aConnectionWithoutItsUrlSecretNamesTheVariableButNoValue() throws Exception {
    script("tidy.sql", "select 1;");
    SqlScriptRunner runner =
        SqlScriptRunner.of(
            new SqlScriptsConfig(root.resolve("sql-scripts.yaml"), root, Set.of("db")),
            new WorkerSecrets(
                Optional.empty(), Map.of("JIMFLOW_SECRET_SQL_DB_PASSWORD", "s3cret!")));

    ApplicationFailure failure =
        catchThrowableOfType(
            ApplicationFailure.class,
            () ->
                runner.run(
                    new SqlScriptStep("db", "tidy.sql"),
                    new RecordingProgress(null),
                    Duration.ofMinutes(1)));

    assertThat(failure.getType()).isEqualTo(StepFailures.CONFIGURATION_ERROR);
    assertThat(failure.getOriginalMessage())
        .contains("connection 'db' has no URL on this worker")
        .contains("JIMFLOW_SECRET_SQL_DB_URL")
        .doesNotContain("s3cret!");
  }

  @Test
  void aWorkerWithoutSqlScriptsConfigurationRefusesTheStep() {
    ApplicationFailure failure =
        catchThrowableOfType(
            ApplicationFailure.class,
            () ->
                SqlScriptRunner.unconfigured("this worker has no config/sql-scripts.yaml")
                    .run(
                        new SqlScriptStep("db", "tidy.sql"),
                        new RecordingProgress(null),
                        Duration.ofMinutes(1)));

    assertThat(failure.getType()).isEqualTo(StepFailures.CONFIGURATION_ERROR);
    assertThat(failure.getOriginalMessage())
        .isEqualTo("SqlScript steps cannot run: this worker has no config/sql-scripts.yaml");
  }

  @Test
  void theConfigurationFileNamesTheRootRelativeToItselfAndRefusesBadNames() throws Exception {
    Path config = Files.createDirectories(root.resolve("config"));
    Path good =
        Files.writeString(
            config.resolve("sql-scripts.yaml"),
            """
        root: ../scripts/sql
        connections:
          - name: reporting
          - name: warehouse
        """);
    assertThat(SqlScriptsConfig.load(good).root()).isEqualTo(root.resolve("scripts/sql"));
    assertThat(SqlScriptsConfig.load(good).connections()).containsExactly("reporting", "warehouse");

    Path bad =
        Files.writeString(
            config.resolve("bad.yaml"),
            "root: sql\nconnections:\n  - name: 'a b'\n  - {name: x, url: jdbc:postgresql://localhost/x}\n");
    assertThat(
            catchThrowableOfType(IllegalArgumentException.class, () -> SqlScriptsConfig.load(bad)))
        .hasMessageStartingWith(bad + ":4: ")
        .hasMessageContaining("url");
  }

  private ApplicationFailure run(SqlScriptStep step) {
    return catchThrowableOfType(
        ApplicationFailure.class,
        () -> runner().run(step, new RecordingProgress(null), Duration.ofMinutes(1)));
  }
}
