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

/** The change history of CSOs and MVOs, kept for a retention period. */
public final class ChangeHistory {

  /** The run record and time come first, as {@link #insert} binds them. */
  private static final String INSERT_CSO_CHANGE =
      "insert into cso_change (run_record_id, changed_at, cso_id, connected_system_id, anchor,"
          + " change_type, attributes) values (?,?,?,?,?,?,?)";

  private static final String INSERT_MVO_CHANGE =
      "insert into mvo_change (run_record_id, changed_at, mvo_id, change_type, attributes)"
          + " values (?,?,?,?,?)";

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
    insert(connection, INSERT_CSO_CHANGE, runId, changes, ChangeHistory::bindCsoChange);
  }

  public void recordMvoChanges(Connection connection, String runId, List<MvoChange> changes)
      throws SQLException {
    insert(connection, INSERT_MVO_CHANGE, runId, changes, ChangeHistory::bindMvoChange);
  }

  private static void bindCsoChange(PreparedStatement statement, CsoChange change)
      throws SQLException {
    statement.setLong(3, change.csoId());
    statement.setString(4, change.connectedSystem());
    statement.setString(5, change.anchor());
    statement.setString(6, change.change().name());
    statement.setString(7, json(change.attributes()));
  }

  private static void bindMvoChange(PreparedStatement statement, MvoChange change)
      throws SQLException {
    statement.setString(3, change.mvoId());
    statement.setString(4, change.change().name());
    statement.setString(5, json(change.attributes()));
  }

  /**
   * Inserts history entries in one batch, all written by one run now: parameters 1 and 2 of {@code
   * sql} are the run record id and the time, {@code entry} binds the others.
   */
  private <T> void insert(
      Connection connection,
      String sql,
      String runId,
      List<T> entries,
      Sql.RowBinder<? super T> entry)
      throws SQLException {
    Instant now = clock.instant();
    Sql.batch(
        connection,
        sql,
        entries,
        (statement, row) -> {
          statement.setString(1, runId);
          Sql.setInstant(statement, 2, now);
          entry.bind(statement, row);
        });
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
        "insert into mvo_change (run_record_id, changed_at, mvo_id, change_type, attributes,"
            + " initiator_type, initiator_id, initiator_name) values (?,?,?,?,?,?,?,?)",
        runId,
        deleted,
        (statement, mvo) -> {
          Initiator initiator = initiators.getOrDefault(mvo.id(), fallback);
          statement.setString(3, mvo.id());
          statement.setString(4, ChangeType.Deleted.name());
          statement.setString(5, null);
          statement.setString(6, initiator == null ? null : initiator.type().name());
          statement.setString(7, initiator == null ? null : initiator.id());
          statement.setString(8, initiator == null ? null : initiator.name());
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
