package io.jimflow.store;

import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.StepRecord;
import io.jimflow.schedule.StepStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The execution history: one {@code execution_record} per schedule execution and one {@code
 * execution_step} per step of it that has ended.
 */
public final class ExecutionRecords {

  private static final int MESSAGE_LIMIT = 4000;

  /** The width of the canceller's column; the workflow cuts names shorter still. */
  private static final int NAME_LIMIT = 200;

  private final Clock clock;

  public ExecutionRecords(Clock clock) {
    this.clock = clock;
  }

  /**
   * Writes the execution's fields unless the stored record is at {@code revision} or later, then
   * its step records (each step is written once it has ended, so writing one again changes nothing
   * it did not already say).
   *
   * @return whether the execution's own fields were written
   */
  public boolean save(Connection connection, int revision, ExecutionRecord execution)
      throws SQLException {
    boolean written = update(connection, revision, execution);
    if (!written && find(connection, execution.executionId()).isEmpty()) {
      insert(connection, revision, execution);
      written = true;
    }
    for (StepRecord step : execution.steps()) {
      saveStep(connection, execution.executionId(), step);
    }
    return written;
  }

  private boolean update(Connection connection, int revision, ExecutionRecord e)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "update execution_record set run_id = ?, schedule_id = ?, schedule_name = ?,"
                + " trigger_kind = ?, initiator_type = ?, initiator_id = ?, initiator_name = ?,"
                + " status = ?, message = ?, step_groups = ?, steps = ?, revision = ?,"
                + " started_at = ?, ended_at = ?, cancelled_by_type = ?, cancelled_by_id = ?,"
                + " updated_at = ? where id = ? and revision < ?")) {
      int i = fields(statement, 1, revision, e);
      statement.setString(i++, e.executionId());
      statement.setInt(i, revision);
      return statement.executeUpdate() == 1;
    }
  }

  private void insert(Connection connection, int revision, ExecutionRecord e) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "insert into execution_record (run_id, schedule_id, schedule_name, trigger_kind,"
                + " initiator_type, initiator_id, initiator_name, status, message, step_groups,"
                + " steps, revision, started_at, ended_at, cancelled_by_type, cancelled_by_id,"
                + " updated_at, id) values (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
      int i = fields(statement, 1, revision, e);
      statement.setString(i, e.executionId());
      statement.executeUpdate();
    }
  }

  private int fields(PreparedStatement statement, int first, int revision, ExecutionRecord e)
      throws SQLException {
    int i = first;
    Initiator initiator = e.initiator();
    statement.setString(i++, e.runId());
    statement.setString(i++, e.scheduleId());
    statement.setString(i++, e.scheduleName());
    statement.setString(i++, e.trigger() == null ? null : e.trigger().name());
    statement.setString(i++, initiator == null ? null : initiator.type().name());
    statement.setString(i++, initiator == null ? null : initiator.id());
    statement.setString(i++, initiator == null ? null : initiator.name());
    statement.setString(i++, e.status().name());
    statement.setString(i++, truncate(e.message()));
    statement.setInt(i++, e.stepGroups());
    statement.setInt(i++, e.stepCount());
    statement.setInt(i++, revision);
    Sql.setInstant(statement, i++, e.startedAt());
    Sql.setInstant(statement, i++, e.endedAt());
    Initiator cancelledBy = e.cancelledBy();
    statement.setString(i++, cancelledBy == null ? null : cancelledBy.type().name());
    statement.setString(i++, cancelledBy == null ? null : cut(cancelledBy.id(), NAME_LIMIT));
    Sql.setInstant(statement, i++, clock.instant());
    return i;
  }

  private void saveStep(Connection connection, String executionId, StepRecord step)
      throws SQLException {
    try (PreparedStatement delete =
        connection.prepareStatement(
            "delete from execution_step where execution_id = ? and position = ?")) {
      delete.setString(1, executionId);
      delete.setInt(2, step.position());
      delete.executeUpdate();
    }
    try (PreparedStatement statement =
        connection.prepareStatement(
            "insert into execution_step (execution_id, position, step_index, name, step_type,"
                + " target, status, attempts, started_at, ended_at, message, run_record_id)"
                + " values (?,?,?,?,?,?,?,?,?,?,?,?)")) {
      statement.setString(1, executionId);
      statement.setInt(2, step.position());
      statement.setInt(3, step.index());
      statement.setString(4, step.name());
      statement.setString(5, step.type());
      statement.setString(6, step.target());
      statement.setString(7, step.status().name());
      statement.setInt(8, step.attempts());
      Sql.setInstant(statement, 9, step.startedAt());
      Sql.setInstant(statement, 10, step.endedAt());
      statement.setString(11, truncate(step.message()));
      statement.setString(
          12,
          step.runRecordId() != null || !"RunProfile".equals(step.type())
              ? step.runRecordId()
              : runRecordOf(connection, executionId, step));
      statement.executeUpdate();
    }
  }

  /** The run record a RunProfile step that ended without a result (lost, cancelled) left. */
  private static String runRecordOf(Connection connection, String executionId, StepRecord step)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select id from run_record where execution_id = ? and step_index = ? and step_name = ?"
                + " order by created_at desc")) {
      statement.setString(1, executionId);
      statement.setInt(2, step.index());
      statement.setString(3, step.name());
      statement.setMaxRows(1);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? rows.getString(1) : null;
      }
    }
  }

  /**
   * Ends a record still InProgress (its execution ended without saying so); an ended one is left
   * alone.
   *
   * @return true if this call ended it
   */
  public boolean finish(
      Connection connection, String executionId, ExecutionStatus status, String message)
      throws SQLException {
    Instant now = clock.instant();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "update execution_record set status = ?, message = ?, ended_at = ?, updated_at = ?"
                + " where id = ? and status = ?")) {
      statement.setString(1, status.name());
      statement.setString(2, truncate(message));
      Sql.setInstant(statement, 3, now);
      Sql.setInstant(statement, 4, now);
      statement.setString(5, executionId);
      statement.setString(6, ExecutionStatus.InProgress.name());
      return statement.executeUpdate() == 1;
    }
  }

  /**
   * What the store held of an execution before a write: its status (empty when it has no record)
   * and the positions of the steps it has records of. Locks the record's row until the transaction
   * ends, so that two writes of one execution see each other's effect in turn.
   */
  public Stored lockStored(Connection connection, String executionId) throws SQLException {
    Optional<ExecutionStatus> status = Optional.empty();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select status from execution_record where id = ? for update")) {
      statement.setString(1, executionId);
      try (ResultSet rows = statement.executeQuery()) {
        if (rows.next()) {
          status = Optional.of(ExecutionStatus.valueOf(rows.getString(1)));
        }
      }
    }
    Set<Integer> steps = new HashSet<>();
    try (PreparedStatement statement =
        connection.prepareStatement("select position from execution_step where execution_id = ?")) {
      statement.setString(1, executionId);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          steps.add(rows.getInt(1));
        }
      }
    }
    return new Stored(status, steps);
  }

  /**
   * @param status the record's status; empty if there was no record
   * @param steps the positions of the steps that had records
   */
  public record Stored(Optional<ExecutionStatus> status, Set<Integer> steps) {}

  /** The execution with every step record it holds, in plan order. */
  public Optional<ExecutionRecord> find(Connection connection, String executionId)
      throws SQLException {
    List<ExecutionRecord> found;
    try (PreparedStatement statement =
        connection.prepareStatement("select * from execution_record where id = ?")) {
      statement.setString(1, executionId);
      found = read(statement);
    }
    if (found.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(found.get(0).withSteps(steps(connection, executionId)));
  }

  /** Executions newest first (without their steps), optionally of one schedule and/or status. */
  public List<ExecutionRecord> list(
      Connection connection, String scheduleId, ExecutionStatus status, int limit)
      throws SQLException {
    StringBuilder sql = new StringBuilder("select * from execution_record where 1 = 1");
    List<String> arguments = new ArrayList<>();
    if (scheduleId != null) {
      sql.append(" and schedule_id = ?");
      arguments.add(scheduleId);
    }
    if (status != null) {
      sql.append(" and status = ?");
      arguments.add(status.name());
    }
    sql.append(" order by started_at desc, id limit ").append(Math.max(1, limit));
    try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
      for (int i = 0; i < arguments.size(); i++) {
        statement.setString(i + 1, arguments.get(i));
      }
      return read(statement);
    }
  }

  /**
   * Each schedule's latest execution (the one started last), without its steps, by schedule id; at
   * most {@code limit} schedules.
   */
  public List<ExecutionRecord> latestPerSchedule(Connection connection, int limit)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select e.* from execution_record e join (select schedule_id, max(started_at) as latest"
                + " from execution_record group by schedule_id) l on e.schedule_id = l.schedule_id"
                + " and e.started_at = l.latest order by e.schedule_id, e.id limit "
                + Math.max(1, limit))) {
      Map<String, ExecutionRecord> latest = new LinkedHashMap<>();
      for (ExecutionRecord record : read(statement)) {
        latest.putIfAbsent(record.scheduleId(), record);
      }
      return List.copyOf(latest.values());
    }
  }

  /** Per schedule, when its last execution that ended Complete ended. */
  public Map<String, Instant> lastCompleted(Connection connection) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select schedule_id, max(ended_at) as ended_at from execution_record"
                + " where status = ? and ended_at is not null group by schedule_id")) {
      statement.setString(1, ExecutionStatus.Complete.name());
      try (ResultSet rows = statement.executeQuery()) {
        Map<String, Instant> last = new LinkedHashMap<>();
        while (rows.next()) {
          last.put(rows.getString("schedule_id"), Sql.getInstant(rows, "ended_at"));
        }
        return last;
      }
    }
  }

  /** The executions whose records are still InProgress, oldest first. */
  public List<InProgressExecution> inProgress(Connection connection, int limit)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select id, run_id from execution_record where status = ? order by started_at limit "
                + Math.max(1, limit))) {
      statement.setString(1, ExecutionStatus.InProgress.name());
      try (ResultSet rows = statement.executeQuery()) {
        List<InProgressExecution> found = new ArrayList<>();
        while (rows.next()) {
          found.add(new InProgressExecution(rows.getString(1), rows.getString(2)));
        }
        return found;
      }
    }
  }

  /** An execution whose record is InProgress, and its run (null when the record has none). */
  public record InProgressExecution(String executionId, String runId) {}

  private static List<StepRecord> steps(Connection connection, String executionId)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select * from execution_step where execution_id = ? order by position")) {
      statement.setString(1, executionId);
      try (ResultSet rows = statement.executeQuery()) {
        List<StepRecord> steps = new ArrayList<>();
        while (rows.next()) {
          steps.add(
              new StepRecord(
                  rows.getInt("position"),
                  rows.getInt("step_index"),
                  rows.getString("name"),
                  rows.getString("step_type"),
                  rows.getString("target"),
                  StepStatus.valueOf(rows.getString("status")),
                  rows.getInt("attempts"),
                  Sql.getInstant(rows, "started_at"),
                  Sql.getInstant(rows, "ended_at"),
                  rows.getString("message"),
                  rows.getString("run_record_id")));
        }
        return steps;
      }
    }
  }

  private static List<ExecutionRecord> read(PreparedStatement statement) throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      List<ExecutionRecord> records = new ArrayList<>();
      while (rows.next()) {
        String initiatorType = rows.getString("initiator_type");
        String trigger = rows.getString("trigger_kind");
        String cancelledByType = rows.getString("cancelled_by_type");
        String cancelledById = rows.getString("cancelled_by_id");
        records.add(
            new ExecutionRecord(
                rows.getString("id"),
                rows.getString("run_id"),
                rows.getString("schedule_id"),
                rows.getString("schedule_name"),
                trigger == null ? null : TriggerKind.valueOf(trigger),
                initiatorType == null
                    ? null
                    : new Initiator(
                        InitiatorType.valueOf(initiatorType),
                        rows.getString("initiator_id"),
                        rows.getString("initiator_name")),
                ExecutionStatus.valueOf(rows.getString("status")),
                rows.getString("message"),
                rows.getInt("step_groups"),
                rows.getInt("steps"),
                Sql.getInstant(rows, "started_at"),
                Sql.getInstant(rows, "ended_at"),
                cancelledByType == null
                    ? null
                    : new Initiator(
                        InitiatorType.valueOf(cancelledByType), cancelledById, cancelledById),
                List.of()));
      }
      return records;
    }
  }

  private static String truncate(String value) {
    return cut(value, MESSAGE_LIMIT);
  }

  private static String cut(String value, int limit) {
    return value == null || value.length() <= limit ? value : value.substring(0, limit);
  }
}
