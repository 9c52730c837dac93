package io.jimflow.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * The deletes of history retention over the records of runs: run records with their items,
 * maintenance runs and execution records (whose steps cascade). Each call is one short batch; only
 * records that ended before the cutoff go, never one still InProgress.
 */
public final class RecordRetention {

  private static final String ENDED_BEFORE =
      "where status <> 'InProgress' and ended_at is not null and ended_at < ?"
          + " order by ended_at, id";

  /** The oldest run records that ended before the cutoff, at most {@code limit}. */
  public List<String> runRecordsEndedBefore(Connection connection, Instant cutoff, int limit)
      throws SQLException {
    return Sql.column(
        connection,
        "select id from run_record " + ENDED_BEFORE + " limit " + Math.max(1, limit),
        String.class,
        s -> Sql.setInstant(s, 1, cutoff));
  }

  /**
   * Deletes at most {@code limit} items of a run record: a large run has a million items, which go
   * in batches rather than in one cascading delete. In sequence order, the order of the run's
   * unique key: each batch reads its items from that index instead of sorting all the run's items.
   */
  public int deleteRunItems(Connection connection, String runRecordId, int limit)
      throws SQLException {
    return Sql.deleteBatch(
        connection,
        "run_item",
        "where run_record_id = ? order by seq",
        limit,
        s -> s.setString(1, runRecordId));
  }

  /** Deletes run records (their items deleted first by {@link #deleteRunItems}). */
  public int deleteRunRecords(Connection connection, Collection<String> ids) throws SQLException {
    return Sql.deleteIn(connection, "run_record", "id", ids);
  }

  /** Deletes at most {@code limit} of the oldest maintenance runs that ended before the cutoff. */
  public int purgeMaintenanceRunsBefore(Connection connection, Instant cutoff, int limit)
      throws SQLException {
    return purgeEndedBefore(connection, "maintenance_run", cutoff, limit);
  }

  /**
   * Deletes at most {@code limit} of the oldest execution records that ended before the cutoff,
   * with their steps.
   */
  public int purgeExecutionRecordsBefore(Connection connection, Instant cutoff, int limit)
      throws SQLException {
    return purgeEndedBefore(connection, "execution_record", cutoff, limit);
  }

  private static int purgeEndedBefore(
      Connection connection, String table, Instant cutoff, int limit) throws SQLException {
    return Sql.deleteBatch(
        connection, table, ENDED_BEFORE, limit, s -> Sql.setInstant(s, 1, cutoff));
  }
}
