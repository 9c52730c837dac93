package io.jimflow.store;

import io.jimflow.maintenance.SystemOperation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which connected systems maintenance holds (being cleared or deleted), so that their run profiles
 * refuse to run instead of racing the maintenance.
 *
 * <p>Both sides serialise on the system's {@code connected_system} row: {@link #hold} locks it
 * before it checks for running run profiles, and a run profile that asks {@link #refusal} in the
 * transaction that creates its run record (after saving the system's catalog entry, which locks the
 * same row) can never start while a hold is taken.
 */
public final class SystemHolds {

  private final Clock clock;

  public SystemHolds(Clock clock) {
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
      List<Hold> holds = read(statement);
      return holds.isEmpty() ? Optional.empty() : Optional.of(holds.get(0));
    }
  }

  /** Every hold there is. */
  public List<Hold> all(Connection connection) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("select * from connected_system_operation")) {
      return read(statement);
    }
  }

  public SystemOperation status(Connection connection, String connectedSystem) throws SQLException {
    return current(connection, connectedSystem).map(Hold::operation).orElse(SystemOperation.Active);
  }

  /**
   * Why a run profile cannot run on a system now, saying until when; empty when it can.
   *
   * @param runProfile the run profile's name, for the message
   */
  public Optional<String> refusal(Connection connection, String connectedSystem, String runProfile)
      throws SQLException {
    return current(connection, connectedSystem)
        .map(
            hold ->
                "connected system '"
                    + connectedSystem
                    + "' "
                    + hold.describe()
                    + "; run profile '"
                    + runProfile
                    + "' cannot run on it until that has finished");
  }

  /**
   * Takes the hold for a workflow; taking it again from the same workflow (a retry) is a no-op.
   *
   * @return why the hold cannot be taken (another workflow holds the system, or one of its run
   *     profiles is running); empty when this workflow now holds it
   */
  public Optional<String> hold(
      Connection connection, String connectedSystem, SystemOperation operation, String workflowId)
      throws SQLException {
    Instant now = clock.instant();
    // Locks the system's row: a run profile starting now waits for this transaction.
    Sql.update(
        connection,
        "update connected_system set updated_at = ? where id = ?",
        s -> {
          Sql.setInstant(s, 1, now);
          s.setString(2, connectedSystem);
        });
    Optional<Hold> existing = current(connection, connectedSystem);
    if (existing.isPresent()) {
      return existing.get().workflowId().equals(workflowId)
          ? Optional.empty()
          : Optional.of("connected system '" + connectedSystem + "' " + existing.get().describe());
    }
    List<String> running =
        Sql.column(
            connection,
            "select run_profile_id from run_record where connected_system_id = ?"
                + " and status = 'InProgress'",
            String.class,
            s -> s.setString(1, connectedSystem));
    if (!running.isEmpty()) {
      return Optional.of(
          "connected system '"
              + connectedSystem
              + "' is in use: run profile '"
              + running.get(0)
              + "' is running; try again once it has finished");
    }
    Sql.update(
        connection,
        "insert into connected_system_operation (connected_system_id, operation, workflow_id,"
            + " started_at) values (?,?,?,?)",
        s -> {
          s.setString(1, connectedSystem);
          s.setString(2, operation.name());
          s.setString(3, workflowId);
          Sql.setInstant(s, 4, now);
        });
    return Optional.empty();
  }

  /** Releases the hold if this workflow has it: the system is Active again. */
  public boolean release(Connection connection, String connectedSystem, String workflowId)
      throws SQLException {
    return Sql.update(
            connection,
            "delete from connected_system_operation where connected_system_id = ?"
                + " and workflow_id = ?",
            s -> {
              s.setString(1, connectedSystem);
              s.setString(2, workflowId);
            })
        == 1;
  }

  private static List<Hold> read(PreparedStatement statement) throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      List<Hold> holds = new ArrayList<>();
      while (rows.next()) {
        holds.add(
            new Hold(
                rows.getString("connected_system_id"),
                SystemOperation.valueOf(rows.getString("operation")),
                rows.getString("workflow_id"),
                Sql.getInstant(rows, "started_at")));
      }
      return holds;
    }
  }
}
