package io.jimflow.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Run records and their run items. */
public final class RunRecords {

  private static final String TOTAL_COLUMNS;
  private static final String TOTAL_ASSIGNMENTS;

  static {
    List<String> columns = new ArrayList<>();
    List<String> assignments = new ArrayList<>();
    for (Total total : Total.values()) {
      columns.add(total.column());
      assignments.add(total.column() + " = ?");
    }
    TOTAL_COLUMNS = String.join(", ", columns);
    TOTAL_ASSIGNMENTS = String.join(", ", assignments);
  }

  private final Clock clock;

  public RunRecords(Clock clock) {
    this.clock = clock;
  }

  /** Creates an InProgress run record and returns its id. */
  public String create(Connection connection, NewRunRecord record) throws SQLException {
    String id = UUID.randomUUID().toString();
    Instant now = clock.instant();
    String sql =
        "insert into run_record (id, connected_system_id, run_profile_id, run_type, status,"
            + " initiator_type, initiator_id, initiator_name, execution_id, schedule_id, step_index,"
            + " step_name, attempts, objects_to_process, objects_processed, items_written, "
            + TOTAL_COLUMNS
            + ", created_at, updated_at) values (?,?,?,?,?,?,?,?,?,?,?,?,1,0,0,0,"
            + Sql.placeholders(Total.values().length)
            + ",?,?)";
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      int i = 1;
      statement.setString(i++, id);
      statement.setString(i++, record.connectedSystem());
      statement.setString(i++, record.runProfile());
      statement.setString(i++, record.runType().name());
      statement.setString(i++, RunStatus.InProgress.name());
      RunOrigin origin = record.origin();
      statement.setString(i++, origin.initiatorType());
      statement.setString(i++, origin.initiatorId());
      statement.setString(i++, origin.initiatorName());
      statement.setString(i++, origin.executionId());
      statement.setString(i++, origin.scheduleId());
      Sql.setIntOrNull(statement, i++, origin.stepIndex());
      statement.setString(i++, origin.stepName());
      for (int t = 0; t < Total.values().length; t++) {
        statement.setLong(i++, 0);
      }
      Sql.setInstant(statement, i++, now);
      Sql.setInstant(statement, i, now);
      statement.executeUpdate();
    }
    return id;
  }

  /** The run record a schedule execution's step left InProgress for this run profile, if any. */
  public Optional<RunRecord> findInProgress(
      Connection connection,
      String executionId,
      int stepIndex,
      String connectedSystem,
      String runProfile)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select * from run_record where execution_id = ? and step_index = ?"
                + " and connected_system_id = ? and run_profile_id = ? and status = ?"
                + " order by created_at desc")) {
      statement.setString(1, executionId);
      statement.setInt(2, stepIndex);
      statement.setString(3, connectedSystem);
      statement.setString(4, runProfile);
      statement.setString(5, RunStatus.InProgress.name());
      return RunRecordRows.first(statement);
    }
  }

  /** Every run record of a schedule execution's step for this run profile, newest first. */
  public List<RunRecord> findForStep(
      Connection connection,
      String executionId,
      int stepIndex,
      String connectedSystem,
      String runProfile)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select * from run_record where execution_id = ? and step_index = ?"
                + " and connected_system_id = ? and run_profile_id = ? order by created_at desc")) {
      statement.setString(1, executionId);
      statement.setInt(2, stepIndex);
      statement.setString(3, connectedSystem);
      statement.setString(4, runProfile);
      return RunRecordRows.all(statement);
    }
  }

  public Optional<RunRecord> find(Connection connection, String id) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("select * from run_record where id = ?")) {
      statement.setString(1, id);
      return RunRecordRows.first(statement);
    }
  }

  /** Run records newest first, optionally of one system and/or status. */
  public List<RunRecord> list(
      Connection connection, String connectedSystem, RunStatus status, int limit)
      throws SQLException {
    StringBuilder sql = new StringBuilder("select * from run_record where 1 = 1");
    List<String> arguments = new ArrayList<>();
    if (connectedSystem != null) {
      sql.append(" and connected_system_id = ?");
      arguments.add(connectedSystem);
    }
    if (status != null) {
      sql.append(" and status = ?");
      arguments.add(status.name());
    }
    sql.append(" order by created_at desc, id limit ").append(Math.max(1, limit));
    try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
      for (int i = 0; i < arguments.size(); i++) {
        statement.setString(i + 1, arguments.get(i));
      }
      return RunRecordRows.all(statement);
    }
  }

  /**
   * Hands a run record that an earlier attempt left InProgress to {@code attempt} (Temporal's
   * attempt number). From then on only that attempt saves progress on it: an older attempt still
   * running (its worker stalled past its heartbeat timeout, so Temporal started the next one) fails
   * its next {@link #saveProgress}, and one that starts only now is refused here. The same attempt
   * may take the record again: that is a run resuming an attempt its worker's stop interrupted (the
   * stopped run has ended, so nothing else writes with that number), and Temporal never runs one
   * attempt twice otherwise.
   *
   * @throws SupersededAttemptException when the record already belongs to a later attempt
   */
  public void recordAttempt(Connection connection, String id, int attempt) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "update run_record set attempts = ?, updated_at = ? where id = ? and attempts <= ?")) {
      statement.setInt(1, attempt);
      Sql.setInstant(statement, 2, clock.instant());
      statement.setString(3, id);
      statement.setInt(4, attempt);
      if (statement.executeUpdate() != 1) {
        throw new SupersededAttemptException(
            "attempt "
                + attempt
                + " of run record "
                + id
                + " came after a later attempt took it over");
      }
    }
  }

  /**
   * Saves progress: totals, processed count, items written and the checkpoint. Call it in the
   * transaction of the page it follows.
   */
  public void saveProgress(
      Connection connection,
      String id,
      int attempt,
      RunTotals totals,
      long objectsProcessed,
      long itemsWritten,
      String checkpoint)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "update run_record set "
                + TOTAL_ASSIGNMENTS
                + ", objects_processed = ?, items_written = ?, checkpoint = ?, updated_at = ?"
                + " where id = ? and status = ? and attempts = ?")) {
      int i = 1;
      for (Total total : Total.values()) {
        statement.setLong(i++, totals.get(total));
      }
      statement.setLong(i++, objectsProcessed);
      statement.setLong(i++, itemsWritten);
      statement.setString(i++, checkpoint);
      Sql.setInstant(statement, i++, clock.instant());
      statement.setString(i++, id);
      statement.setString(i++, RunStatus.InProgress.name());
      statement.setInt(i, attempt);
      if (statement.executeUpdate() != 1) {
        // Rolls back the page: a later attempt owns the record, or the run ended.
        throw notOwned(id, attempt);
      }
    }
  }

  /**
   * Adds a partition's progress to the run's (its totals, objects processed and items written, as
   * increments, so partitions committing on several connections never overwrite each other) and
   * reserves the sequence numbers of its run items. Call it last in the partition's transaction: it
   * holds the run record's row until the commit.
   *
   * @return the first of the {@code items} sequence numbers reserved
   * @throws SupersededAttemptException as {@link #saveProgress}
   */
  public long addProgress(
      Connection connection,
      String id,
      int attempt,
      RunTotals delta,
      long objectsProcessed,
      int items)
      throws SQLException {
    StringBuilder sql = new StringBuilder("update run_record set ");
    for (Total total : Total.values()) {
      sql.append(total.column()).append(" = ").append(total.column()).append(" + ?, ");
    }
    sql.append("objects_processed = objects_processed + ?, items_written = items_written + ?,")
        .append(" updated_at = ? where id = ? and status = ? and attempts = ?")
        .append(" returning items_written");
    try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
      int i = 1;
      for (Total total : Total.values()) {
        statement.setLong(i++, delta.get(total));
      }
      statement.setLong(i++, objectsProcessed);
      statement.setLong(i++, items);
      Sql.setInstant(statement, i++, clock.instant());
      statement.setString(i++, id);
      statement.setString(i++, RunStatus.InProgress.name());
      statement.setInt(i, attempt);
      try (ResultSet rows = statement.executeQuery()) {
        if (!rows.next()) {
          throw notOwned(id, attempt);
        }
        return rows.getLong(1) - items;
      }
    }
  }

  private static SupersededAttemptException notOwned(String id, int attempt) {
    return new SupersededAttemptException(
        "attempt "
            + attempt
            + " of run record "
            + id
            + " no longer owns it: the run ended or a later attempt took it over");
  }

  /**
   * Writes run items with consecutive sequence numbers from {@code firstSequence}; the unique (run
   * record, sequence) key makes a page that was already written fail instead of doubling.
   */
  public void addItems(Connection connection, String id, long firstSequence, List<RunItem> items)
      throws SQLException {
    RunItemRows.insert(connection, id, firstSequence, items, clock.instant());
  }

  /**
   * Ends a run record that is still InProgress; does nothing to one that already ended, so calling
   * it twice is harmless.
   *
   * @return true if this call ended it
   */
  public boolean finish(
      Connection connection,
      String id,
      RunStatus status,
      String message,
      RunTotals totals,
      Long objectsToProcess,
      Long objectsProcessed)
      throws SQLException {
    if (!status.isFinal()) {
      throw new IllegalArgumentException("a run record ends with a final status, not " + status);
    }
    StringBuilder sql = new StringBuilder("update run_record set status = ?, message = ?");
    if (totals != null) {
      sql.append(", ").append(TOTAL_ASSIGNMENTS);
    }
    if (objectsToProcess != null) {
      sql.append(", objects_to_process = ?");
    }
    if (objectsProcessed != null) {
      sql.append(", objects_processed = ?");
    }
    sql.append(", updated_at = ?, ended_at = ? where id = ? and status = ?");
    Instant now = clock.instant();
    try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
      int i = 1;
      statement.setString(i++, status.name());
      statement.setString(i++, truncate(message, 4000));
      if (totals != null) {
        for (Total total : Total.values()) {
          statement.setLong(i++, totals.get(total));
        }
      }
      if (objectsToProcess != null) {
        statement.setLong(i++, objectsToProcess);
      }
      if (objectsProcessed != null) {
        statement.setLong(i++, objectsProcessed);
      }
      Sql.setInstant(statement, i++, now);
      Sql.setInstant(statement, i++, now);
      statement.setString(i++, id);
      statement.setString(i, RunStatus.InProgress.name());
      return statement.executeUpdate() == 1;
    }
  }

  /**
   * Records where the run reads changes up to; it becomes the start of the next delta import once
   * this run has completed.
   */
  public void saveWatermark(Connection connection, String id, String watermark)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("update run_record set watermark = ? where id = ?")) {
      statement.setString(1, watermark);
      statement.setString(2, id);
      statement.executeUpdate();
    }
  }

  /** The watermark this run record saved, if any. */
  public Optional<String> watermark(Connection connection, String id) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("select watermark from run_record where id = ?")) {
      statement.setString(1, id);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? Optional.ofNullable(rows.getString(1)) : Optional.empty();
      }
    }
  }

  /**
   * The watermark of a system's newest completed run record that has one: where its next delta
   * import starts. A failed or unfinished run never moves it.
   */
  public Optional<String> lastCompletedWatermark(Connection connection, String system)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select watermark from run_record where connected_system_id = ? and watermark is not"
                + " null and status in (?, ?) order by ended_at desc, created_at desc")) {
      statement.setString(1, system);
      statement.setString(2, RunStatus.Complete.name());
      statement.setString(3, RunStatus.CompleteWithError.name());
      statement.setMaxRows(1);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? Optional.of(rows.getString(1)) : Optional.empty();
      }
    }
  }

  /** A run record's items in the order written; errors first when asked. */
  public List<StoredRunItem> items(
      Connection connection, String id, boolean errorsOnly, boolean errorsFirst, int limit)
      throws SQLException {
    return RunItemRows.read(connection, id, errorsOnly, errorsFirst, limit);
  }

  public long countItems(Connection connection, String id) throws SQLException {
    return RunItemRows.count(connection, id);
  }

  /** A run item with its sequence number within its run record. */
  public record StoredRunItem(long sequence, RunItem item) {}

  static String truncate(String value, int max) {
    return value == null || value.length() <= max ? value : value.substring(0, max);
  }
}
