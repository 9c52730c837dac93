package io.jimflow.maintenance;

import io.temporal.failure.ApplicationFailure;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which connected systems maintenance holds (being cleared or deleted), so that their run profiles
 * refuse to run instead of racing the maintenance.
 *
 * <p>Both sides serialise on the system's {@code connected_system} row: {@link #hold} locks it
 * before it checks for running run profiles, and a run profile that checks {@link
 * #requireAvailable} in the transaction that creates its run record (after saving the system's
 * catalog entry, which locks the same row) can never start while a hold is taken.
 */
public final class SystemOperations {

  private final Clock clock;

  public SystemOperations(Clock clock) {
    this.clock = clock;
  }

  /** The maintenance holding a system. */
  public record Hold(
      String connectedSystem, SystemOperation operation, String workflowId, Instant since) {

    /** E.g. "is being deleted (workflow jimflow-system-hr, since 2026-...)". */
    public String describe() {
      String doing = operation == SystemOperation.Deleting ? "deleted" : "cleared";
      return "is being " + doing + " (workflow " + workflowId + ", since " + since + ")";
    }
  }

  /** The hold on a system; empty when it is Active. */
  public Optional<Hold> current(Connection connection, String connectedSystem) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select * from connected_system_operation where connected_system_id = ?")) {
      statement.setString(1, connectedSystem);
      try (ResultSet rows = statement.executeQuery()) {
        if (!rows.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new Hold(
                connectedSystem,
                SystemOperation.valueOf(rows.getString("operation")),
                rows.getString("workflow_id"),
                Jdbc.getInstant(rows, "started_at")));
      }
    }
  }

  /** Every hold there is. */
  public List<Hold> all(Connection connection) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("select * from connected_system_operation")) {
      try (ResultSet rows = statement.executeQuery()) {
        List<Hold> holds = new java.util.ArrayList<>();
        while (rows.next()) {
          holds.add(
              new Hold(
                  rows.getString("connected_system_id"),
                  SystemOperation.valueOf(rows.getString("operation")),
                  rows.getString("workflow_id"),
                  Jdbc.getInstant(rows, "started_at")));
        }
        return holds;
      }
    }
  }

  public SystemOperation status(Connection connection, String connectedSystem) throws SQLException {
    return current(connection, connectedSystem).map(Hold::operation).orElse(SystemOperation.Active);
  }

  /**
   * Fails a run profile of a held system with a message saying why and until when.
   *
   * @throws ApplicationFailure non-retryable, type {@link MaintenanceActivities#SYSTEM_BUSY}
   */
  public void requireAvailable(Connection connection, String connectedSystem, String runProfile)
      throws SQLException {
    Optional<Hold> hold = current(connection, connectedSystem);
    if (hold.isPresent()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "connected system '"
              + connectedSystem
              + "' "
              + hold.get().describe()
              + "; run profile '"
              + runProfile
              + "' cannot run on it until that has finished",
          MaintenanceActivities.SYSTEM_BUSY);
    }
  }

  /**
   * Takes the hold for a workflow; taking it again from the same workflow (a retry) is a no-op.
   *
   * @throws ApplicationFailure non-retryable ({@link MaintenanceActivities#SYSTEM_BUSY}) while
   *     another workflow holds it or one of its run profiles is running
   */
  public void hold(
      Connection connection, String connectedSystem, SystemOperation operation, String workflowId)
      throws SQLException {
    Instant now = clock.instant();
    // Locks the system's row: a run profile starting now waits for this transaction.
    Jdbc.update(
        connection,
        "update connected_system set updated_at = ? where id = ?",
        s -> {
          Jdbc.setInstant(s, 1, now);
          s.setString(2, connectedSystem);
        });
    Optional<Hold> existing = current(connection, connectedSystem);
    if (existing.isPresent()) {
      if (existing.get().workflowId().equals(workflowId)) {
        return;
      }
      throw ApplicationFailure.newNonRetryableFailure(
          "connected system '" + connectedSystem + "' " + existing.get().describe(),
          MaintenanceActivities.SYSTEM_BUSY);
    }
    List<String> running =
        Jdbc.stringIds(
            connection,
            "select run_profile_id from run_record where connected_system_id = ? and status = 'InProgress'",
            s -> s.setString(1, connectedSystem));
    if (!running.isEmpty()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "connected system '"
              + connectedSystem
              + "' is in use: run profile '"
              + running.get(0)
              + "' is running; try again once it has finished",
          MaintenanceActivities.SYSTEM_BUSY);
    }
    Jdbc.update(
        connection,
        "insert into connected_system_operation (connected_system_id, operation, workflow_id, started_at)"
            + " values (?,?,?,?)",
        s -> {
          s.setString(1, connectedSystem);
          s.setString(2, operation.name());
          s.setString(3, workflowId);
          Jdbc.setInstant(s, 4, now);
        });
  }

  /** Releases the hold if this workflow has it: the system is Active again. */
  public boolean release(Connection connection, String connectedSystem, String workflowId)
      throws SQLException {
    return Jdbc.update(
            connection,
            "delete from connected_system_operation where connected_system_id = ? and workflow_id = ?",
            s -> {
              s.setString(1, connectedSystem);
              s.setString(2, workflowId);
            })
        == 1;
  }
}
