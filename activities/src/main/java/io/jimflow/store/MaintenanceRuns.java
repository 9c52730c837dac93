package io.jimflow.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.maintenance.MaintenanceKind;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Run records of maintenance work (housekeeping cycles, history retention, connected-system tasks),
 * in {@code maintenance_run}: status, initiator and totals by name.
 */
public final class MaintenanceRuns {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Clock clock;

  public MaintenanceRuns(Clock clock) {
    this.clock = clock;
  }

  /** A maintenance run record as stored. */
  public record MaintenanceRun(
      String id,
      MaintenanceKind kind,
      String status,
      String message,
      String connectedSystem,
      Initiator initiator,
      String workflowId,
      String runId,
      Map<String, Long> totals,
      Instant createdAt,
      Instant endedAt) {}

  /**
   * {@link #open(Connection, String, MaintenanceKind, String, Initiator, String, String)}, no run.
   */
  public boolean open(
      Connection connection,
      String id,
      MaintenanceKind kind,
      String connectedSystem,
      Initiator initiator,
      String workflowId)
      throws SQLException {
    return open(connection, id, kind, connectedSystem, initiator, workflowId, null);
  }

  /**
   * Creates an InProgress record with this id; does nothing if it exists (a retried attempt).
   *
   * @param runId the run of {@code workflowId} the record belongs to; null when not known
   */
  public boolean open(
      Connection connection,
      String id,
      MaintenanceKind kind,
      String connectedSystem,
      Initiator initiator,
      String workflowId,
      String runId)
      throws SQLException {
    if (find(connection, id).isPresent()) {
      return false;
    }
    Instant now = clock.instant();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "insert into maintenance_run (id, kind, status, connected_system_id, initiator_type,"
                + " initiator_id, initiator_name, workflow_id, run_id, totals, created_at,"
                + " updated_at) values (?,?,?,?,?,?,?,?,?,?,?,?)")) {
      statement.setString(1, id);
      statement.setString(2, kind.name());
      statement.setString(3, "InProgress");
      statement.setString(4, connectedSystem);
      statement.setString(5, initiator == null ? null : initiator.type().name());
      statement.setString(6, initiator == null ? null : initiator.id());
      statement.setString(7, initiator == null ? null : initiator.name());
      statement.setString(8, workflowId);
      statement.setString(9, runId);
      statement.setString(10, "{}");
      Sql.setInstant(statement, 11, now);
      Sql.setInstant(statement, 12, now);
      statement.executeUpdate();
    }
    return true;
  }

  /** Ends a record still InProgress; returns false if it is missing or already ended. */
  public boolean finish(
      Connection connection, String id, String status, String message, Map<String, Long> totals)
      throws SQLException {
    Instant now = clock.instant();
    return Sql.update(
            connection,
            "update maintenance_run set status = ?, message = ?, totals = ?, updated_at = ?,"
                + " ended_at = ? where id = ? and status = 'InProgress'",
            s -> {
              s.setString(1, status);
              s.setString(
                  2,
                  message == null || message.length() <= 4000
                      ? message
                      : message.substring(0, 4000));
              s.setString(3, write(totals));
              Sql.setInstant(s, 4, now);
              Sql.setInstant(s, 5, now);
              s.setString(6, id);
            })
        == 1;
  }

  public Optional<MaintenanceRun> find(Connection connection, String id) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("select * from maintenance_run where id = ?")) {
      statement.setString(1, id);
      List<MaintenanceRun> runs = read(statement);
      return runs.isEmpty() ? Optional.empty() : Optional.of(runs.get(0));
    }
  }

  /** The records still InProgress, oldest first. */
  public List<MaintenanceRun> inProgress(Connection connection, int limit) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select * from maintenance_run where status = 'InProgress' order by created_at limit "
                + Math.max(1, limit))) {
      return read(statement);
    }
  }

  /** Records newest first, optionally of one kind. */
  public List<MaintenanceRun> list(Connection connection, MaintenanceKind kind, int limit)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select * from maintenance_run"
                + (kind == null ? "" : " where kind = ?")
                + " order by created_at desc, id limit "
                + Math.max(1, limit))) {
      if (kind != null) {
        statement.setString(1, kind.name());
      }
      return read(statement);
    }
  }

  private static List<MaintenanceRun> read(PreparedStatement statement) throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      List<MaintenanceRun> runs = new ArrayList<>();
      while (rows.next()) {
        String type = rows.getString("initiator_type");
        Initiator initiator =
            type == null
                ? null
                : new Initiator(
                    io.jimflow.schedule.ScheduleExecutionInput.InitiatorType.valueOf(type),
                    rows.getString("initiator_id"),
                    rows.getString("initiator_name"));
        runs.add(
            new MaintenanceRun(
                rows.getString("id"),
                MaintenanceKind.valueOf(rows.getString("kind")),
                rows.getString("status"),
                rows.getString("message"),
                rows.getString("connected_system_id"),
                initiator,
                rows.getString("workflow_id"),
                rows.getString("run_id"),
                readTotals(rows.getString("totals")),
                Sql.getInstant(rows, "created_at"),
                Sql.getInstant(rows, "ended_at")));
      }
      return runs;
    }
  }

  private static String write(Map<String, Long> totals) {
    try {
      return JSON.writeValueAsString(totals == null ? Map.of() : new LinkedHashMap<>(totals));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, Long> readTotals(String json) {
    try {
      return JSON.readValue(json, new TypeReference<LinkedHashMap<String, Long>>() {});
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("unreadable totals " + json, e);
    }
  }
}
