package io.jimflow.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Run records read from the rows of {@code run_record}. */
final class RunRecordRows {

  private RunRecordRows() {}

  static Optional<RunRecord> first(PreparedStatement statement) throws SQLException {
    List<RunRecord> records = all(statement);
    return records.isEmpty() ? Optional.empty() : Optional.of(records.get(0));
  }

  static List<RunRecord> all(PreparedStatement statement) throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      List<RunRecord> records = new ArrayList<>();
      while (rows.next()) {
        records.add(map(rows));
      }
      return records;
    }
  }

  private static RunRecord map(ResultSet rows) throws SQLException {
    RunTotals totals = new RunTotals();
    for (Total total : Total.values()) {
      totals.set(total, rows.getLong(total.column()));
    }
    int stepIndex = rows.getInt("step_index");
    Integer stepIndexOrNull = rows.wasNull() ? null : stepIndex;
    return new RunRecord(
        rows.getString("id"),
        rows.getString("connected_system_id"),
        rows.getString("run_profile_id"),
        RunType.valueOf(rows.getString("run_type")),
        RunStatus.valueOf(rows.getString("status")),
        rows.getString("message"),
        new RunOrigin(
            rows.getString("initiator_type"),
            rows.getString("initiator_id"),
            rows.getString("initiator_name"),
            rows.getString("execution_id"),
            rows.getString("schedule_id"),
            stepIndexOrNull,
            rows.getString("step_name")),
        rows.getInt("attempts"),
        rows.getLong("objects_to_process"),
        rows.getLong("objects_processed"),
        rows.getLong("items_written"),
        totals,
        rows.getString("checkpoint"),
        Sql.getInstant(rows, "created_at"),
        Sql.getInstant(rows, "updated_at"),
        Sql.getInstant(rows, "ended_at"));
  }
}
