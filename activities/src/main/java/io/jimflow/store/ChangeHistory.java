package io.jimflow.store;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The change history of CSOs and MVOs, kept for a retention period. */
public final class ChangeHistory {

  private static final BulkInsert CSO_CHANGES =
      new BulkInsert(
          "cso_change",
          BulkInsert.varchar("run_record_id"),
          BulkInsert.timestamp("changed_at"),
          BulkInsert.bigint("cso_id"),
          BulkInsert.varchar("connected_system_id"),
          BulkInsert.varchar("anchor"),
          BulkInsert.varchar("change_type"),
          BulkInsert.varchar("attributes"));

  private static final BulkInsert MVO_CHANGES =
      new BulkInsert(
          "mvo_change",
          BulkInsert.varchar("run_record_id"),
          BulkInsert.timestamp("changed_at"),
          BulkInsert.varchar("mvo_id"),
          BulkInsert.varchar("change_type"),
          BulkInsert.varchar("attributes"));

  private static final BulkInsert MVO_DELETIONS =
      MVO_CHANGES.and(
          BulkInsert.varchar("initiator_type"),
          BulkInsert.varchar("initiator_id"),
          BulkInsert.varchar("initiator_name"));

  private final Clock clock;

  public ChangeHistory(Clock clock) {
    this.clock = clock;
  }

  /** One change of a CSO; {@code attributes} null for a deletion. */
  public record CsoChange(
      long csoId,
      String connectedSystem,
      String anchor,
      ChangeType change,
      Map<String, String> attributes) {}

  /** One change of an MVO; {@code attributes} null for a deletion. */
  public record MvoChange(String mvoId, ChangeType change, Map<String, String> attributes) {}

  public void recordCsoChanges(Connection connection, String runId, List<CsoChange> changes)
      throws SQLException {
    insert(
        connection,
        CSO_CHANGES,
        runId,
        changes,
        change ->
            new Object[] {
              change.csoId(),
              change.connectedSystem(),
              change.anchor(),
              change.change().name(),
              json(change.attributes())
            });
  }

  public void recordMvoChanges(Connection connection, String runId, List<MvoChange> changes)
      throws SQLException {
    insert(
        connection,
        MVO_CHANGES,
        runId,
        changes,
        change -> new Object[] {change.mvoId(), change.change().name(), json(change.attributes())});
  }

  /**
   * Inserts history entries in one go, all written by one run now: the run record id and the time
   * come first, {@code values} gives the others of an entry.
   */
  private <T> void insert(
      Connection connection,
      BulkInsert table,
      String runId,
      List<T> entries,
      Function<? super T, Object[]> values)
      throws SQLException {
    Instant now = clock.instant();
    List<Object[]> rows = new ArrayList<>(entries.size());
    for (T entry : entries) {
      Object[] own = values.apply(entry);
      Object[] row = new Object[own.length + 2];
      row[0] = runId;
      row[1] = now;
      System.arraycopy(own, 0, row, 2, own.length);
      rows.add(row);
    }
    table.insert(connection, rows);
  }

  /** The attributes as stored; none for a deletion. */
  private static String json(Map<String, String> attributes) {
    return attributes == null ? null : AttributesJson.write(attributes);
  }

  /** The change types recorded for a CSO, oldest first. */
  public List<ChangeType> csoChanges(Connection connection, long csoId) throws SQLException {
    return changeTypes(
        connection, "select change_type from cso_change where cso_id = ? order by id", csoId);
  }

  /**
   * A CSO change a run recorded, as a preview shows it.
   *
   * @param objectType its CSO's object type (null once the CSO is gone)
   * @param attributes what the run imported; null for a deletion
   */
  public record RecordedCsoChange(
      String anchor, String objectType, Map<String, String> attributes) {}

  /**
   * The last {@code limit} CSO changes of this type a run recorded, oldest first. Read newest first
   * by id, so that a run's changes, the newest in the table, are found without reading the rest.
   */
  public List<RecordedCsoChange> lastCsoChanges(
      Connection connection, String runId, ChangeType change, int limit) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select ch.anchor, c.object_type, ch.attributes from cso_change ch"
                + " left join cso c on c.id = ch.cso_id"
                + " where ch.run_record_id = ? and ch.change_type = ? order by ch.id desc limit ?")) {
      statement.setString(1, runId);
      statement.setString(2, change.name());
      statement.setInt(3, limit);
      List<RecordedCsoChange> changes = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          String attributes = rows.getString(3);
          changes.add(
              0,
              new RecordedCsoChange(
                  rows.getString(1),
                  rows.getString(2),
                  attributes == null ? null : AttributesJson.read(attributes)));
        }
      }
      return changes;
    }
  }

  public List<ChangeType> mvoChanges(Connection connection, String mvoId) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select change_type from mvo_change where mvo_id = ? order by id")) {
      statement.setString(1, mvoId);
      return read(statement);
    }
  }

  /** Whose change history: the CSOs' or the MVOs'. */
  public enum Subject {
    CSO("cso_change"),
    MVO("mvo_change");

    private final String table;

    Subject(String table) {
      this.table = table;
    }
  }

  /**
   * Deletes the oldest entries written before the cutoff, at most {@code limit}: one batch of the
   * history retention.
   *
   * <p>Entries are written with the time of writing and ids that grow, so the oldest come first in
   * id order: the batch reads the first {@code limit} entries by id and deletes them up to the
   * first one not older than the cutoff (a batch shorter than {@code limit} ends the purge). No
   * index on {@code changed_at} is needed for that, which saves an index entry for every entry
   * written.
   *
   * @return how many entries went
   */
  public int purgeBefore(Connection connection, Subject subject, Instant cutoff, int limit)
      throws SQLException {
    List<Long> ids = new ArrayList<>();
    try (PreparedStatement statement =
            connection.prepareStatement(
                "select id, changed_at from "
                    + subject.table
                    + " order by id fetch first "
                    + Math.max(1, limit)
                    + " rows only");
        ResultSet rows = statement.executeQuery()) {
      while (rows.next() && Sql.getInstant(rows, "changed_at").isBefore(cutoff)) {
        ids.add(rows.getLong("id"));
      }
    }
    return Sql.deleteIn(connection, subject.table, "id", ids);
  }

  /**
   * Deletes at most {@code limit} of the change entries of a connected system's objects.
   *
   * @return how many entries went
   */
  public int purgeForSystem(Connection connection, String connectedSystem, int limit)
      throws SQLException {
    return Sql.deleteBatch(
        connection,
        "cso_change",
        "where connected_system_id = ? order by id",
        limit,
        s -> s.setString(1, connectedSystem));
  }

  /**
   * Records the deletion of MVOs, each naming who initiated it ({@code fallback} for those not in
   * {@code initiators}).
   */
  public void recordMvoDeletions(
      Connection connection,
      String runId,
      List<MvoRow> deleted,
      Map<String, Initiator> initiators,
      Initiator fallback)
      throws SQLException {
    insert(
        connection,
        MVO_DELETIONS,
        runId,
        deleted,
        mvo -> {
          Initiator initiator = initiators.getOrDefault(mvo.id(), fallback);
          return new Object[] {
            mvo.id(),
            ChangeType.Deleted.name(),
            null,
            initiator == null ? null : initiator.type().name(),
            initiator == null ? null : initiator.id(),
            initiator == null ? null : initiator.name()
          };
        });
  }

  private static List<ChangeType> changeTypes(Connection connection, String sql, long id)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setLong(1, id);
      return read(statement);
    }
  }

  private static List<ChangeType> read(PreparedStatement statement) throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      List<ChangeType> types = new ArrayList<>();
      while (rows.next()) {
        types.add(ChangeType.valueOf(rows.getString(1)));
      }
      return types;
    }
  }
}
