package io.jimflow.schedule.steps;

import io.jimflow.testing.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** SqlScript steps on the test PostgreSQL (skipped without one, unless {@code CI=true}). */
@ExtendWith(TestPostgres.Required.class)
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
}
