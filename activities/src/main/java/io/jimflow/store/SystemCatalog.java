package io.jimflow.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;

/** The connected systems and run profiles of the configuration, mirrored into the store. */
public final class SystemCatalog {

  private final Clock clock;

  public SystemCatalog(Clock clock) {
    this.clock = clock;
  }

  /** A connected system's row. */
  public record SystemEntry(
      String id, String name, String connectorType, List<ProfileEntry> runProfiles) {}

  /** A run profile's row. */
  public record ProfileEntry(String id, String name, RunType runType) {}

  /** Makes the stored systems and run profiles those given (others are left alone). */
  public void save(Connection connection, List<SystemEntry> systems) throws SQLException {
    for (SystemEntry system : systems) {
      int updated;
      try (PreparedStatement statement =
          connection.prepareStatement(
              "update connected_system set name = ?, connector_type = ?, updated_at = ? where id = ?")) {
        statement.setString(1, system.name());
        statement.setString(2, system.connectorType());
        Sql.setInstant(statement, 3, clock.instant());
        statement.setString(4, system.id());
        updated = statement.executeUpdate();
      }
      if (updated == 0) {
        try (PreparedStatement statement =
            connection.prepareStatement(
                "insert into connected_system (id, name, connector_type, updated_at) values (?,?,?,?)")) {
          statement.setString(1, system.id());
          statement.setString(2, system.name());
          statement.setString(3, system.connectorType());
          Sql.setInstant(statement, 4, clock.instant());
          statement.executeUpdate();
        }
      }
      try (PreparedStatement statement =
          connection.prepareStatement("delete from run_profile where connected_system_id = ?")) {
        statement.setString(1, system.id());
        statement.executeUpdate();
      }
      Sql.batch(
          connection,
          "insert into run_profile (connected_system_id, id, name, run_type) values (?,?,?,?)",
          system.runProfiles(),
          (statement, profile) -> {
            statement.setString(1, system.id());
            statement.setString(2, profile.id());
            statement.setString(3, profile.name());
            statement.setString(4, profile.runType().name());
          });
    }
  }

  /** Whether the store knows the system (it ran at least once, or was saved here). */
  public boolean exists(Connection connection, String id) throws SQLException {
    return !Sql.column(
            connection,
            "select id from connected_system where id = ?",
            String.class,
            s -> s.setString(1, id))
        .isEmpty();
  }

  /** Deletes a system's catalog entry and its run profiles. */
  public void delete(Connection connection, String id) throws SQLException {
    Sql.update(
        connection,
        "delete from run_profile where connected_system_id = ?",
        s -> s.setString(1, id));
    Sql.update(connection, "delete from connected_system where id = ?", s -> s.setString(1, id));
  }
}
