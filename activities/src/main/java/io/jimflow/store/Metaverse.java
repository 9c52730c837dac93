package io.jimflow.store;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.sync.MultiValue;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Metaverse objects (MVOs): the joined-up identities, and the key index that join rules look them
 * up by.
 *
 * @see #Metaverse(Clock, Map) for which attributes are indexed
 */
public final class Metaverse {

  private static final BulkInsert MVOS =
      new BulkInsert(
          "mvo",
          BulkInsert.varchar("id"),
          BulkInsert.varchar("object_type"),
          BulkInsert.varchar("attributes"),
          BulkInsert.timestamp("deletion_eligible_at"),
          BulkInsert.timestamp("created_at"),
          BulkInsert.timestamp("updated_at"));

  private static final BulkInsert KEYS =
      new BulkInsert(
          "mvo_key",
          BulkInsert.varchar("object_type"),
          BulkInsert.varchar("attribute"),
          BulkInsert.varchar("attr_value"),
          BulkInsert.varchar("mvo_id"));

  private final Clock clock;
  private final Map<String, Set<String>> keyAttributesByType;

  /**
   * @param keyAttributesByType per MVO type, the attributes join rules match on; only these are
   *     indexed in {@code mvo_key}
   */
  public Metaverse(Clock clock, Map<String, Set<String>> keyAttributesByType) {
    this.clock = clock;
    this.keyAttributesByType = Map.copyOf(keyAttributesByType);
  }

  public Map<String, MvoRow> findByIds(Connection connection, Collection<String> ids)
      throws SQLException {
    Map<String, MvoRow> found = new HashMap<>();
    if (ids.isEmpty()) {
      return found;
    }
    try (PreparedStatement statement =
        connection.prepareStatement("select * from mvo where id = ANY(?)")) {
      Sql.setStrings(statement, 1, ids);
      for (MvoRow row : rows(statement)) {
        found.put(row.id(), row);
      }
    }
    return found;
  }

  /** MVO ids of one type whose indexed attribute has one of these values, by value. */
  public Map<String, List<String>> findByKey(
      Connection connection, String objectType, String attribute, Collection<String> values)
      throws SQLException {
    Map<String, List<String>> found = new HashMap<>();
    if (values.isEmpty()) {
      return found;
    }
    // Type and attribute are filtered here, so the lookup stays a seek on the value-first key. A
    // join with the values, not "attr_value = ANY(?)": where the planner's statistics still say
    // the key table is small (a first synchronisation fills it), ANY became a scan comparing
    // every row with every value; a join is at worst a hash join, linear in both.
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select k.attr_value, k.mvo_id, k.object_type, k.attribute from mvo_key k"
                + " join unnest(?) as v(attr_value) on k.attr_value = v.attr_value")) {
      Sql.setStrings(statement, 1, values);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          if (rows.getString(3).equals(objectType) && rows.getString(4).equals(attribute)) {
            found.computeIfAbsent(rows.getString(1), k -> new ArrayList<>()).add(rows.getString(2));
          }
        }
      }
    }
    return found;
  }

  public void insert(Connection connection, List<MvoRow> mvos) throws SQLException {
    if (mvos.isEmpty()) {
      return;
    }
    Instant now = clock.instant();
    List<Object[]> rows = new ArrayList<>(mvos.size());
    List<Key> keys = new ArrayList<>();
    for (MvoRow mvo : mvos) {
      rows.add(
          new Object[] {
            mvo.id(),
            mvo.objectType(),
            AttributesJson.write(mvo.attributes()),
            mvo.deletionEligibleAt(),
            now,
            now
          });
      keys.addAll(keysOf(mvo));
    }
    MVOS.insert(connection, rows);
    insertKeys(connection, keys);
  }

  /**
   * Replaces the attributes and deletion date of existing MVOs, and the key index entries of those
   * whose key values changed.
   */
  public void update(Connection connection, List<MvoRow> mvos) throws SQLException {
    if (mvos.isEmpty()) {
      return;
    }
    Map<String, MvoRow> byId = Sql.lastById(mvos, MvoRow::id);
    Collection<MvoRow> rows = byId.values();
    Instant now = clock.instant();
    Sql.update(
        connection,
        Sql.updateByIdFromArrays(
            "mvo",
            "cast(? as varchar array), cast(? as varchar array), cast(? as varchar array)",
            "id, attributes, deletion_eligible_at",
            "attributes = v.attributes, deletion_eligible_at = cast(v.deletion_eligible_at as"
                + " timestamp with time zone), updated_at = ?",
            null),
        statement -> {
          Sql.setStrings(statement, 1, byId.keySet());
          Sql.setStrings(
              statement,
              2,
              rows.stream().map(mvo -> AttributesJson.write(mvo.attributes())).toList());
          Sql.setStrings(
              statement,
              3,
              rows.stream().map(mvo -> Sql.timestampText(mvo.deletionEligibleAt())).toList());
          Sql.setInstant(statement, 4, now);
        });
    replaceChangedKeys(connection, rows);
  }

  /** Rewrites the key index entries of the MVOs whose key values differ from the stored ones. */
  private void replaceChangedKeys(Connection connection, Collection<MvoRow> mvos)
      throws SQLException {
    Map<String, Set<Key>> stored = new HashMap<>();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select object_type, attribute, attr_value, mvo_id from mvo_key where mvo_id = ANY(?)")) {
      Sql.setStrings(statement, 1, mvos.stream().map(MvoRow::id).toList());
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          Key key =
              new Key(rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4));
          stored.computeIfAbsent(key.mvoId(), k -> new HashSet<>()).add(key);
        }
      }
    }
    List<String> changed = new ArrayList<>();
    List<Key> keys = new ArrayList<>();
    for (MvoRow mvo : mvos) {
      List<Key> wanted = keysOf(mvo);
      if (!new HashSet<>(wanted).equals(stored.getOrDefault(mvo.id(), Set.of()))) {
        changed.add(mvo.id());
        keys.addAll(wanted);
      }
    }
    deleteKeys(connection, changed);
    insertKeys(connection, keys);
  }

  /** MVOs whose deletion grace period has passed, oldest first. */
  public List<MvoRow> findDueForDeletion(Connection connection, Instant now, int limit)
      throws SQLException {
    return findDueForDeletion(connection, now, limit, List.of());
  }

  /**
   * MVOs whose deletion grace period has passed, oldest first, but for {@code except} (those whose
   * deletion the store refused earlier in the same pass).
   */
  public List<MvoRow> findDueForDeletion(
      Connection connection, Instant now, int limit, Collection<String> except)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select * from mvo where deletion_eligible_at is not null and deletion_eligible_at <= ?"
                + (except.isEmpty() ? "" : " and not (id = ANY(?))")
                + " order by deletion_eligible_at, id limit ?")) {
      int index = 1;
      Sql.setInstant(statement, index++, now);
      if (!except.isEmpty()) {
        Sql.setStrings(statement, index++, except);
      }
      statement.setInt(index, limit);
      return rows(statement);
    }
  }

  /** Those of these MVOs whose deletion grace period has passed at {@code now}. */
  public List<MvoRow> stillDue(Connection connection, List<MvoRow> mvos, Instant now)
      throws SQLException {
    Map<String, MvoRow> current = findByIds(connection, mvos.stream().map(MvoRow::id).toList());
    List<MvoRow> due = new ArrayList<>();
    for (MvoRow mvo : mvos) {
      MvoRow stored = current.get(mvo.id());
      if (stored != null
          && stored.deletionEligibleAt() != null
          && !stored.deletionEligibleAt().isAfter(now)) {
        due.add(stored);
      }
    }
    return due;
  }

  public void delete(Connection connection, Collection<String> ids) throws SQLException {
    if (ids.isEmpty()) {
      return;
    }
    deleteKeys(connection, ids);
    Sql.deleteIn(connection, "mvo", "id", ids);
  }

  /**
   * Gives an MVO its deletion date and remembers who asked and why, so that the change history of
   * its eventual deletion names them.
   */
  public void markForDeletion(
      Connection connection, String mvoId, Instant eligible, Initiator initiator, String reason)
      throws SQLException {
    Instant now = clock.instant();
    Sql.update(
        connection,
        "update mvo set deletion_eligible_at = ?, updated_at = ? where id = ?",
        s -> {
          Sql.setInstant(s, 1, eligible);
          Sql.setInstant(s, 2, now);
          s.setString(3, mvoId);
        });
    Sql.deleteIn(connection, "mvo_deletion_initiator", "mvo_id", List.of(mvoId));
    Sql.update(
        connection,
        "insert into mvo_deletion_initiator (mvo_id, eligible_at, initiator_type, initiator_id,"
            + " initiator_name, reason) values (?,?,?,?,?,?)",
        s -> {
          s.setString(1, mvoId);
          Sql.setInstant(s, 2, eligible);
          s.setString(3, initiator == null ? null : initiator.type().name());
          s.setString(4, initiator == null ? null : initiator.id());
          s.setString(5, initiator == null ? null : initiator.name());
          s.setString(6, reason);
        });
  }

  /**
   * Who initiated each MVO's deletion: the one recorded by {@link #markForDeletion} (while its
   * deletion date is still the one marked), else the initiator of the run that last changed it;
   * absent when neither is known. Read before the MVOs are deleted.
   */
  public Map<String, Initiator> deletionInitiators(Connection connection, List<MvoRow> due)
      throws SQLException {
    Map<String, Initiator> found = new HashMap<>();
    if (due.isEmpty()) {
      return found;
    }
    Map<String, MvoRow> byId = new HashMap<>();
    due.forEach(mvo -> byId.put(mvo.id(), mvo));
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select mvo_id, eligible_at, initiator_type, initiator_id, initiator_name"
                + " from mvo_deletion_initiator where mvo_id = ANY(?)")) {
      Sql.setStrings(statement, 1, byId.keySet());
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          MvoRow mvo = byId.get(rows.getString("mvo_id"));
          if (mvo.deletionEligibleAt().equals(Sql.getInstant(rows, "eligible_at"))
              && rows.getString("initiator_type") != null) {
            found.put(mvo.id(), initiator(rows));
          }
        }
      }
    }
    List<String> rest = due.stream().map(MvoRow::id).filter(id -> !found.containsKey(id)).toList();
    if (rest.isEmpty()) {
      return found;
    }
    // The run of each MVO's latest change that names an initiator: the highest change id wins.
    Map<String, Long> latest = new HashMap<>();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "select h.mvo_id, h.id, r.initiator_type, r.initiator_id, r.initiator_name"
                + " from mvo_change h join run_record r on r.id = h.run_record_id"
                + " where h.mvo_id = ANY(?) and r.initiator_type is not null")) {
      Sql.setStrings(statement, 1, rest);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          String mvoId = rows.getString("mvo_id");
          long changeId = rows.getLong("id");
          Long seen = latest.get(mvoId);
          if (seen == null || changeId > seen) {
            latest.put(mvoId, changeId);
            found.put(mvoId, initiator(rows));
          }
        }
      }
    }
    return found;
  }

  private static Initiator initiator(ResultSet rows) throws SQLException {
    return new Initiator(
        InitiatorType.valueOf(rows.getString("initiator_type")),
        rows.getString("initiator_id"),
        rows.getString("initiator_name"));
  }

  public long count(Connection connection, String objectType) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("select count(*) from mvo where object_type = ?")) {
      statement.setString(1, objectType);
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }

  /** One entry of the key index: an MVO's value of one of its type's key attributes. */
  private record Key(String objectType, String attribute, String value, String mvoId) {}

  /** The key index entries of an MVO: its values of its type's key attributes. */
  private List<Key> keysOf(MvoRow mvo) {
    List<Key> keys = new ArrayList<>();
    for (String attribute : keyAttributesByType.getOrDefault(mvo.objectType(), Set.of())) {
      // Several values are keyed in sorted order, as joins look them up.
      String value = MultiValue.normalised(mvo.attributes().get(attribute));
      if (value != null && value.length() <= 1000) {
        keys.add(new Key(mvo.objectType(), attribute, value, mvo.id()));
      }
    }
    return keys;
  }

  private static void insertKeys(Connection connection, List<Key> keys) throws SQLException {
    List<Object[]> rows = new ArrayList<>(keys.size());
    for (Key key : keys) {
      rows.add(new Object[] {key.objectType(), key.attribute(), key.value(), key.mvoId()});
    }
    KEYS.insert(connection, rows);
  }

  private static void deleteKeys(Connection connection, Collection<String> ids)
      throws SQLException {
    Sql.deleteIn(connection, "mvo_key", "mvo_id", ids);
  }

  private static List<MvoRow> rows(PreparedStatement statement) throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      List<MvoRow> result = new ArrayList<>();
      while (rows.next()) {
        result.add(
            new MvoRow(
                rows.getString("id"),
                rows.getString("object_type"),
                AttributesJson.read(rows.getString("attributes")),
                Sql.getInstant(rows, "deletion_eligible_at")));
      }
      return result;
    }
  }
}
