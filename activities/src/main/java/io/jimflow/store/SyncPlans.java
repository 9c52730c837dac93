package io.jimflow.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The plan of a synchronisation page written on several store connections: which CSOs each of its
 * partitions holds. A page's plan is written in the transaction that moves the run's checkpoint
 * past the page, and each partition deletes its own rows in the transaction that writes its
 * objects, so the rows that remain after a crash are exactly the partitions still to do.
 */
public final class SyncPlans {

  /** Announces a page: its partitions' CSO ids, the partitions numbered from 0. */
  public void announce(Connection connection, String runId, List<List<Long>> partitions)
      throws SQLException {
    List<long[]> rows = new ArrayList<>();
    for (int p = 0; p < partitions.size(); p++) {
      for (long csoId : partitions.get(p)) {
        rows.add(new long[] {csoId, p});
      }
    }
    Sql.batch(
        connection,
        "insert into sync_plan (run_record_id, cso_id, partition_no) values (?, ?, ?)",
        rows,
        (statement, row) -> {
          statement.setString(1, runId);
          statement.setLong(2, row[0]);
          statement.setInt(3, (int) row[1]);
        });
  }

  /** The partitions of the run's announced page not yet done, each in CSO id order. */
  public List<List<Long>> remaining(Connection connection, String runId) throws SQLException {
    Map<Integer, List<Long>> byPartition = new TreeMap<>();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select partition_no, cso_id from sync_plan where run_record_id = ?"
                + " order by partition_no, cso_id")) {
      statement.setString(1, runId);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          byPartition.computeIfAbsent(rows.getInt(1), p -> new ArrayList<>()).add(rows.getLong(2));
        }
      }
    }
    return new ArrayList<>(byPartition.values());
  }

  /**
   * Marks these CSOs of the run's plan done, in the transaction that wrote them.
   *
   * @throws SupersededAttemptException when one was no longer planned: another attempt did it
   */
  public void done(Connection connection, String runId, Collection<Long> csoIds)
      throws SQLException {
    int deleted =
        Sql.updateByIds(
            connection,
            "delete from sync_plan where run_record_id = ? and cso_id = ANY(?)",
            csoIds,
            statement -> statement.setString(1, runId));
    if (deleted != csoIds.size()) {
      throw new SupersededAttemptException(
          (csoIds.size() - deleted)
              + " of the "
              + csoIds.size()
              + " CSOs of a synchronisation partition of run record "
              + runId
              + " were no longer planned: another attempt synchronised them");
    }
  }
}
