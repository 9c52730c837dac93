package io.jimflow.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The runs that wait for a person's approval, as their run records say: a run held above a
 * threshold stays InProgress with {@code awaiting_approval_since} set until the decided run takes
 * it on again (or it ends: cancelled, abandoned, swept).
 */
public final class ApprovalWaits {

  private final Clock clock;

  public ApprovalWaits(Clock clock) {
    this.clock = clock;
  }

  /** The executions of one schedule that wait, and since when the oldest of their runs waits. */
  public record Waiting(long executions, Instant oldestSince) {}

  /** Marks an InProgress run record as waiting for an approval from now. */
  public void hold(Connection connection, String runRecordId) throws SQLException {
    Instant now = clock.instant();
    Sql.update(
        connection,
        "update run_record set awaiting_approval_since = ?, updated_at = ? where id = ?"
            + " and status = ?",
        s -> {
          Sql.setInstant(s, 1, now);
          Sql.setInstant(s, 2, now);
          s.setString(3, runRecordId);
          s.setString(4, RunStatus.InProgress.name());
        });
  }

  /** The run record no longer waits: a decision came and the run goes on (or ends). */
  public void release(Connection connection, String runRecordId) throws SQLException {
    Sql.update(
        connection,
        "update run_record set awaiting_approval_since = null where id = ?"
            + " and awaiting_approval_since is not null",
        s -> s.setString(1, runRecordId));
  }

  /** The schedules with runs waiting for an approval now, by schedule id. */
  public Map<String, Waiting> bySchedule(Connection connection) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select schedule_id, count(distinct execution_id) as executions,"
                + " min(awaiting_approval_since) as oldest from run_record"
                + " where status = ? and awaiting_approval_since is not null"
                + " and schedule_id is not null group by schedule_id")) {
      statement.setString(1, RunStatus.InProgress.name());
      try (ResultSet rows = statement.executeQuery()) {
        Map<String, Waiting> waiting = new LinkedHashMap<>();
        while (rows.next()) {
          waiting.put(
              rows.getString("schedule_id"),
              new Waiting(rows.getLong("executions"), Sql.getInstant(rows, "oldest")));
        }
        return waiting;
      }
    }
  }
}
