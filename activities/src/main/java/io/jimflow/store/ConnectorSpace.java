package io.jimflow.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Connector space objects (CSOs): what each connected system holds, as last imported. */
public final class ConnectorSpace {

  private static final BulkInsert NEW_CSOS =
      new BulkInsert(
          "cso",
          BulkInsert.varchar("connected_system_id"),
          BulkInsert.varchar("object_type"),
          BulkInsert.varchar("anchor"),
          BulkInsert.varchar("attributes"),
          BulkInsert.varchar("content_hash"),
          BulkInsert.varchar("state"),
          BulkInsert.varchar("mvo_id"),
          BulkInsert.varchar("join_type"),
          BulkInsert.timestamp("joined_at"),
          BulkInsert.bool("sync_pending"),
          BulkInsert.varchar("last_seen_run"),
          BulkInsert.timestamp("created_at"),
          BulkInsert.timestamp("updated_at"));

  private final Clock clock;

  public ConnectorSpace(Clock clock) {
    this.clock = clock;
  }

  /** A CSO to insert. */
  public record NewCso(
      String connectedSystem,
      String objectType,
      String anchor,
      String attributesJson,
      String contentHash,
      CsoState state,
      String mvoId,
      String joinType,
      boolean syncPending,
      String lastSeenRun) {}

  /** New content for an existing CSO, found again by the import run {@code lastSeenRun}. */
  public record CsoUpdate(
      long id, String attributesJson, String contentHash, CsoState state, String lastSeenRun) {}

  /** The stored CSOs of one system and object type with these anchors, by anchor. */
  public Map<String, CsoRow> findByAnchors(
      Connection connection, String system, String objectType, Collection<String> anchors)
      throws SQLException {
    Map<String, CsoRow> found = new HashMap<>();
    if (anchors.isEmpty()) {
      return found;
    }
    // Only the anchor in SQL, which the anchor-first index serves; the rest is filtered here.
    try (PreparedStatement statement =
        connection.prepareStatement("select * from cso where anchor = ANY(?)")) {
      Sql.setStrings(statement, 1, anchors);
      for (CsoRow row : CsoReads.rows(statement, true)) {
        if (row.connectedSystem().equals(system) && row.objectType().equals(objectType)) {
          found.put(row.anchor(), row);
        }
      }
    }
    return found;
  }

  /**
   * A stored CSO without its attributes: what an import compares a row with (by content hash) and
   * needs to update, confirm or delete it.
   */
  public record CsoSummary(
      long id,
      String anchor,
      String contentHash,
      CsoState state,
      String mvoId,
      String lastSeenRun) {

    public static CsoSummary of(CsoRow cso) {
      return new CsoSummary(
          cso.id(), cso.anchor(), cso.contentHash(), cso.state(), cso.mvoId(), cso.lastSeenRun());
    }
  }

  /**
   * The stored CSOs of one system and object type with these anchors, by anchor, without their
   * attributes.
   */
  public Map<String, CsoSummary> findSummariesByAnchors(
      Connection connection, String system, String objectType, Collection<String> anchors)
      throws SQLException {
    return CsoReads.summariesByAnchors(connection, system, objectType, anchors);
  }

  /** The ids of the CSOs of one system and object type with these anchors, by anchor. */
  public Map<String, Long> findIdsByAnchors(
      Connection connection, String system, String objectType, Collection<String> anchors)
      throws SQLException {
    Map<String, Long> ids = new HashMap<>();
    findSummariesByAnchors(connection, system, objectType, anchors)
        .forEach((anchor, cso) -> ids.put(anchor, cso.id()));
    return ids;
  }

  /**
   * Inserts CSOs in one go and returns their ids by anchor, as the insert itself hands them back
   * (anchors are unique per system and object type: insert one kind per call to tell them apart).
   */
  public Map<String, Long> insert(Connection connection, List<NewCso> csos) throws SQLException {
    if (csos.isEmpty()) {
      return Map.of();
    }
    Instant now = clock.instant();
    List<Object[]> rows = new ArrayList<>(csos.size());
    for (NewCso cso : csos) {
      rows.add(
          new Object[] {
            cso.connectedSystem(),
            cso.objectType(),
            cso.anchor(),
            cso.attributesJson(),
            cso.contentHash(),
            cso.state().name(),
            cso.mvoId(),
            cso.joinType(),
            cso.mvoId() == null ? null : now,
            cso.syncPending(),
            cso.lastSeenRun(),
            now,
            now
          });
    }
    long[] ids = NEW_CSOS.insertReturningIds(connection, rows);
    Map<String, Long> byAnchor = new HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      byAnchor.put(csos.get(i).anchor(), ids[i]);
    }
    return byAnchor;
  }

  /**
   * Gives provisioned CSOs the anchors their system assigned when the objects were created (a
   * directory's entryUUID), replacing the provisional ones: one statement for all of them.
   *
   * @param anchors the new anchor by CSO id
   */
  public void updateAnchors(Connection connection, Map<Long, String> anchors) throws SQLException {
    if (anchors.isEmpty()) {
      return;
    }
    List<Long> ids = new ArrayList<>(anchors.keySet());
    Sql.update(
        connection,
        Sql.updateByIdFromArrays(
            "cso",
            "cast(? as bigint array), cast(? as varchar array)",
            "id, anchor",
            "anchor = v.anchor, updated_at = ?",
            null),
        statement -> {
          Sql.setLongs(statement, 1, ids);
          Sql.setStrings(statement, 2, ids.stream().map(anchors::get).toList());
          Sql.setInstant(statement, 3, clock.instant());
        });
  }

  /** Writes new content for changed CSOs and marks them for the next synchronisation. */
  public void update(Connection connection, List<CsoUpdate> updates) throws SQLException {
    if (updates.isEmpty()) {
      return;
    }
    Map<Long, CsoUpdate> byId = Sql.lastById(updates, CsoUpdate::id);
    Collection<CsoUpdate> rows = byId.values();
    Instant now = clock.instant();
    Sql.update(
        connection,
        Sql.updateByIdFromArrays(
            "cso",
            "cast(? as bigint array), cast(? as varchar array), cast(? as varchar array),"
                + " cast(? as varchar array), cast(? as varchar array)",
            "id, attributes, content_hash, state, last_seen_run",
            "attributes = v.attributes, content_hash = v.content_hash, state = v.state,"
                + " sync_pending = true, last_seen_run = v.last_seen_run, updated_at = ?",
            null),
        statement -> {
          Sql.setLongs(statement, 1, byId.keySet());
          Sql.setStrings(statement, 2, rows.stream().map(CsoUpdate::attributesJson).toList());
          Sql.setStrings(statement, 3, rows.stream().map(CsoUpdate::contentHash).toList());
          Sql.setStrings(statement, 4, rows.stream().map(u -> u.state().name()).toList());
          Sql.setStrings(statement, 5, rows.stream().map(CsoUpdate::lastSeenRun).toList());
          Sql.setInstant(statement, 6, now);
        });
  }

  /** Records that an import run found these unchanged CSOs, so they are not deleted as absent. */
  public void markSeen(Connection connection, Collection<Long> ids, String runId)
      throws SQLException {
    Sql.updateByIds(
        connection,
        "update cso set last_seen_run = ? where id = ANY(?)",
        ids,
        s -> s.setString(1, runId));
  }

  /**
   * Imported (Normal) CSOs of a system that the import run did not find, after {@code afterId}, in
   * id order, without their attributes.
   */
  public List<CsoRow> findNotSeen(
      Connection connection, String system, String runId, long afterId, int limit)
      throws SQLException {
    return CsoReads.page(
        connection,
        false,
        " and state = ? and (last_seen_run is null or last_seen_run <> ?)",
        List.of(system, CsoState.Normal.name(), runId),
        afterId,
        limit);
  }

  /** A system's imported (Normal) CSOs, and how many of them a run did not find. */
  public record AbsentCount(long total, long absent) {}

  public AbsentCount countNotSeen(Connection connection, String system, String runId)
      throws SQLException {
    return CsoReads.countNotSeen(connection, system, runId);
  }

  /** Marks CSOs absent from their system; the next synchronisation removes them. */
  public void markObsolete(Connection connection, Collection<Long> ids) throws SQLException {
    Sql.updateByIds(
        connection,
        "update cso set state = ?, sync_pending = true where id = ANY(?)",
        ids,
        s -> s.setString(1, CsoState.Obsolete.name()));
  }

  /**
   * The next page of a system's CSOs in id order for a synchronisation: all of them, or only those
   * changed since the last one. A page may hold fewer than {@code limit} CSOs; an empty one means
   * there are no more.
   */
  public List<CsoRow> pageForSync(
      Connection connection, String system, long afterId, int limit, boolean pendingOnly)
      throws SQLException {
    return CsoReads.page(
        connection,
        true,
        pendingOnly ? " and sync_pending = true" : "",
        List.of(system),
        afterId,
        limit);
  }

  /** These CSOs, those that still exist, in id order. */
  public List<CsoRow> findByIds(Connection connection, Collection<Long> ids) throws SQLException {
    if (ids.isEmpty()) {
      return List.of();
    }
    try (PreparedStatement statement =
        connection.prepareStatement("select * from cso where id = ANY(?) order by id")) {
      Sql.setLongs(statement, 1, ids);
      return CsoReads.rows(statement, true);
    }
  }

  /** CSOs joined to these MVOs, in any system. */
  public List<CsoRow> findByMvoIds(Connection connection, Collection<String> mvoIds)
      throws SQLException {
    if (mvoIds.isEmpty()) {
      return List.of();
    }
    try (PreparedStatement statement =
        connection.prepareStatement("select * from cso where mvo_id = ANY(?)")) {
      Sql.setStrings(statement, 1, mvoIds);
      return CsoReads.rows(statement, true);
    }
  }

  /**
   * Joins CSOs to MVOs ({@code joinType} Projected, Joined or Provisioned) and marks them
   * synchronised, in one statement for all of them.
   */
  public void join(Connection connection, Map<Long, String> mvoByCso, String joinType)
      throws SQLException {
    if (mvoByCso.isEmpty()) {
      return;
    }
    List<Long> csoIds = new ArrayList<>(mvoByCso.size());
    List<String> mvoIds = new ArrayList<>(mvoByCso.size());
    mvoByCso.forEach(
        (csoId, mvoId) -> {
          csoIds.add(csoId);
          mvoIds.add(mvoId);
        });
    Instant now = clock.instant();
    Sql.update(
        connection,
        Sql.updateByIdFromArrays(
            "cso",
            "cast(? as bigint array), cast(? as varchar array)",
            "id, mvo_id",
            "mvo_id = v.mvo_id, join_type = ?, joined_at = ?, sync_pending = false",
            null),
        statement -> {
          Sql.setLongs(statement, 1, csoIds);
          Sql.setStrings(statement, 2, mvoIds);
          statement.setString(3, joinType);
          Sql.setInstant(statement, 4, now);
        });
  }

  public void disconnect(Connection connection, Collection<Long> ids) throws SQLException {
    Sql.updateByIds(
        connection,
        "update cso set mvo_id = null, join_type = null, joined_at = null where id = ANY(?)",
        ids,
        s -> {});
  }

  /** Marks CSOs as synchronised, so a delta synchronisation passes them by. */
  public void clearSyncPending(Connection connection, Collection<Long> ids) throws SQLException {
    Sql.updateByIds(
        connection, "update cso set sync_pending = false where id = ANY(?)", ids, s -> {});
  }

  public void delete(Connection connection, Collection<Long> ids) throws SQLException {
    Sql.deleteIn(connection, "cso", "id", ids);
  }

  /** What one page of deleting a connected system's objects removed. */
  public record SystemObjectsDeleted(int csos, int pendingExports) {}

  /**
   * Deletes at most {@code limit} of a connected system's CSOs with their pending exports: one page
   * of clearing the system.
   */
  public SystemObjectsDeleted deleteForSystem(Connection connection, String system, int limit)
      throws SQLException {
    List<Long> ids =
        Sql.column(
            connection,
            "select id from cso where connected_system_id = ? order by id limit " + limit,
            Long.class,
            s -> s.setString(1, system));
    int exports = Sql.deleteIn(connection, "pending_export", "cso_id", ids);
    return new SystemObjectsDeleted(Sql.deleteIn(connection, "cso", "id", ids), exports);
  }

  /** A CSO joined to an MVO. */
  public record Join(long csoId, String mvoId) {}

  /** A connected system's joined CSOs with ids after {@code afterId}, at most {@code limit}. */
  public List<Join> joinsAfter(Connection connection, String system, long afterId, int limit)
      throws SQLException {
    return CsoReads.joinsAfter(connection, system, afterId, limit);
  }

  public long count(Connection connection, String system) throws SQLException {
    return CsoReads.count(connection, system);
  }

  public long countSyncPending(Connection connection, String system) throws SQLException {
    return CsoReads.countSyncPending(connection, system);
  }
}
