package io.jimflow.store;

import io.jimflow.store.RunRecords.StoredRunItem;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The run items of run records: written a page at a time, read back in the order written. */
final class RunItemRows {

  private static final BulkInsert RUN_ITEMS =
      new BulkInsert(
          "run_item",
          BulkInsert.varchar("run_record_id"),
          BulkInsert.bigint("seq"),
          BulkInsert.varchar("object_ref"),
          BulkInsert.bigint("cso_id"),
          BulkInsert.varchar("mvo_id"),
          BulkInsert.varchar("change_type"),
          BulkInsert.varchar("error_type"),
          BulkInsert.varchar("error_message"),
          BulkInsert.timestamp("created_at"));

  private RunItemRows() {}

  /**
   * Writes run items with consecutive sequence numbers from {@code firstSequence}; the unique (run
   * record, sequence) key makes a page that was already written fail instead of doubling.
   */
  static void insert(
      Connection connection, String id, long firstSequence, List<RunItem> items, Instant now)
      throws SQLException {
    List<Object[]> rows = new ArrayList<>(items.size());
    long sequence = firstSequence;
    for (RunItem item : items) {
      rows.add(
          new Object[] {
            id,
            sequence++,
            RunRecords.truncate(item.objectRef(), 500),
            item.csoId(),
            item.mvoId(),
            item.changeType().name(),
            item.errorType(),
            RunRecords.truncate(item.errorMessage(), 2000),
            now
          });
    }
    RUN_ITEMS.insert(connection, rows);
  }

  /** A run record's items in the order written; errors first when asked. */
  static List<StoredRunItem> read(
      Connection connection, String id, boolean errorsOnly, boolean errorsFirst, int limit)
      throws SQLException {
    String sql =
        "select * from run_item where run_record_id = ?"
            + (errorsOnly ? " and error_type is not null" : "")
            + " order by "
            + (errorsFirst ? "case when error_type is null then 1 else 0 end, " : "")
            + "seq limit "
            + Math.max(1, limit);
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, id);
      try (ResultSet rows = statement.executeQuery()) {
        List<StoredRunItem> items = new ArrayList<>();
        while (rows.next()) {
          items.add(
              new StoredRunItem(
                  rows.getLong("seq"),
                  new RunItem(
                      rows.getString("object_ref"),
                      Sql.getLongOrNull(rows, "cso_id"),
                      rows.getString("mvo_id"),
                      ChangeType.valueOf(rows.getString("change_type")),
                      rows.getString("error_type"),
                      rows.getString("error_message"))));
        }
        return items;
      }
    }
  }

  static long count(Connection connection, String id) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("select count(*) from run_item where run_record_id = ?")) {
      statement.setString(1, id);
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }
}
