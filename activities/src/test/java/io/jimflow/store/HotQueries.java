package io.jimflow.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/**
 * The plans of the data plane's hot queries on a populated store (after an HR import and
 * synchronisation), as the store runs them: PostgreSQL's {@code EXPLAIN (ANALYZE, BUFFERS)}. Each
 * query is the text the repositories send, with parameters taken from the store (a page of HR
 * objects, their MVOs, the Directory's objects). For docs/benchmarks.md, "Hot queries: EXPLAIN".
 */
public final class HotQueries {

  private static final int PAGE = 2_000;

  private HotQueries() {}

  /** A query as a repository sends it, and how to bind it. */
  private record Query(String name, String sql, Sql.Binder binder) {}

  /** The plans, as a markdown section per query. */
  public static String explain(Store store) {
    return store.inTransaction(
        c -> {
          long firstHr =
              Sql.column(
                      c,
                      "select min(id) from cso where connected_system_id = 'hr'",
                      Long.class,
                      s -> {})
                  .get(0);
          List<String> anchors =
              Sql.column(
                  c,
                  "select anchor from cso where connected_system_id = 'hr' and id > ? and id <= ?",
                  String.class,
                  s -> {
                    s.setLong(1, firstHr - 1);
                    s.setLong(2, firstHr - 1 + PAGE);
                  });
          List<String> mvoIds =
              Sql.column(
                  c,
                  "select mvo_id from cso where connected_system_id = 'hr' and id > ? and id <= ?"
                      + " and mvo_id is not null",
                  String.class,
                  s -> {
                    s.setLong(1, firstHr - 1);
                    s.setLong(2, firstHr - 1 + PAGE);
                  });
          List<Long> targets = new ArrayList<>();
          try (PreparedStatement statement =
              c.prepareStatement("select id from cso where mvo_id = ANY(?)")) {
            Sql.setStrings(statement, 1, mvoIds);
            try (ResultSet rows = statement.executeQuery()) {
              while (rows.next()) {
                targets.add(rows.getLong(1));
              }
            }
          }
          String lastRun =
              Sql.column(
                      c,
                      "select id from run_record order by created_at desc fetch first 1 rows only",
                      String.class,
                      s -> {})
                  .get(0);
          // The first page of HR objects by id window, as a synchronisation reads it.
          Sql.Binder firstHrWindow =
              s -> {
                s.setString(1, "hr");
                s.setLong(2, firstHr - 1);
                s.setLong(3, firstHr - 1 + PAGE);
              };
          List<Query> queries =
              List.of(
                  new Query(
                      "Synchronisation page: a window of a system's CSOs by id"
                          + " (ConnectorSpace.pageForSync)",
                      "select * from cso where connected_system_id = ? and id > ? and id <= ?"
                          + " order by id",
                      firstHrWindow),
                  new Query(
                      "Delta synchronisation page: the changed CSOs of a window",
                      "select * from cso where connected_system_id = ? and id > ? and id <= ?"
                          + " and sync_pending = true order by id",
                      firstHrWindow),
                  new Query(
                      "Anchor lookup of an import page (ConnectorSpace.findByAnchors)",
                      "select * from cso where anchor = ANY(?)",
                      s -> Sql.setStrings(s, 1, anchors)),
                  new Query(
                      "Join lookup by key value (Metaverse.findByKey)",
                      "select attr_value, mvo_id, object_type, attribute from mvo_key"
                          + " where attr_value = ANY(?)",
                      s -> Sql.setStrings(s, 1, anchors)),
                  new Query(
                      "MVOs of a page (Metaverse.findByIds)",
                      "select * from mvo where id = ANY(?)",
                      s -> Sql.setStrings(s, 1, mvoIds)),
                  new Query(
                      "CSOs joined to a page's MVOs (ConnectorSpace.findByMvoIds)",
                      "select * from cso where mvo_id = ANY(?)",
                      s -> Sql.setStrings(s, 1, mvoIds)),
                  new Query(
                      "Open exports of the targets (PendingExports.findOpenByCso)",
                      "select pe.*, c.anchor from pending_export pe join cso c on c.id ="
                          + " pe.cso_id where pe.status <> ? and pe.cso_id = ANY(?) order by pe.id",
                      s -> {
                        s.setString(1, ExportStatus.Confirmed.name());
                        Sql.setLongs(s, 2, targets);
                      }),
                  new Query(
                      "A page of a system's Pending exports (PendingExports.findPendingAfter,"
                          + " 500 a page)",
                      "select pe.*, c.anchor from pending_export pe join cso c on c.id ="
                          + " pe.cso_id where pe.connected_system_id = ? and pe.status = ?"
                          + " and pe.id > ? order by pe.id fetch first 500 rows only",
                      s -> {
                        s.setString(1, "directory");
                        s.setString(2, ExportStatus.Pending.name());
                        s.setLong(3, 0);
                      }),
                  new Query(
                      "Pending exports of a system, counted (PendingExports.countPending)",
                      "select count(*) from pending_export where connected_system_id = ?"
                          + " and status = ?",
                      s -> {
                        s.setString(1, "directory");
                        s.setString(2, ExportStatus.Pending.name());
                      }),
                  new Query(
                      "A system's CSOs, counted (ConnectorSpace.count)",
                      "select count(*) from cso where connected_system_id = ?",
                      s -> s.setString(1, "hr")),
                  new Query(
                      "Run record retention: a batch of a run's items (RecordRetention"
                          + ".deleteRunItems)",
                      "select id from run_item where run_record_id = ? order by seq"
                          + " fetch first 1000 rows only",
                      s -> s.setString(1, lastRun)),
                  new Query(
                      "Change history retention: the oldest entries (ChangeHistory.purgeBefore)",
                      "select id, changed_at from mvo_change order by id fetch first 1000 rows"
                          + " only",
                      s -> {}));
          StringBuilder out = new StringBuilder();
          for (Query query : queries) {
            out.append("#### ").append(query.name()).append("\n\n```sql\n");
            out.append(query.sql()).append("\n```\n\n```\n");
            try (PreparedStatement statement =
                c.prepareStatement("explain (analyze, buffers) " + query.sql())) {
              query.binder().bind(statement);
              List<String> lines = new ArrayList<>();
              try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                  lines.add(rows.getString(1));
                }
              }
              for (String line : lines) {
                out.append(line).append('\n');
              }
            }
            out.append("```\n\n");
          }
          return out.toString();
        });
  }

  /** Runs a statement (DDL of a benchmark variant) in its own transaction. */
  public static void execute(Store store, String sql) {
    store.inTransaction(
        c -> {
          try (PreparedStatement statement = c.prepareStatement(sql)) {
            statement.execute();
          }
          return null;
        });
  }
}
