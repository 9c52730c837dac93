package io.jimflow.store;

import io.jimflow.connector.ImportRow;
import io.jimflow.connector.csv.CsvObjectReader;
import io.jimflow.connector.csv.CsvSettings;
import io.jimflow.sync.ContentHash;
import java.io.IOException;
import java.io.StringReader;
import java.lang.reflect.Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * The raw limit of the data plane on this machine and store: the same CSV parsed by the same parser
 * in the same pages of 2,000, and the rows a Full Import writes per person (one {@code cso}, one
 * {@code cso_change}, one {@code run_item}, the run record's progress once per page) written into
 * the same tables, with all their indexes, by the fastest plain means and no import logic: no
 * lookup of existing objects, no comparison, one commit per page. The import figures of {@code
 * DataPlaneBenchmark} are ratios to the fastest variant of the same run.
 *
 * <p>It also writes, with the same means, the rows a first Full Synchronisation writes per person
 * (the <em>raw sync rows</em>): read the page of HR objects once, then one {@code mvo}, one {@code
 * mvo_key}, one {@code mvo_change}, the join (one set-based update of the HR object per page), and
 * per target system (directory for everyone in scope, badge system for employees) one provisioned
 * {@code cso}, one {@code pending_export} and one {@code run_item}, plus the run item of the
 * projection. A measurement, not a test: see docs/benchmarks.md.
 */
@OnRequestBenchmark
public class RawLimitBenchmark {

  /** The plain means of writing rows, per store. */
  public enum Variant {
    /** {@code COPY … FROM STDIN (FORMAT csv)} through pgjdbc's CopyManager. */
    PG_COPY(BenchmarkStore.Kind.POSTGRES, "COPY"),
    /** JDBC batches, sent as multi-row INSERTs by {@code reWriteBatchedInserts=true}. */
    PG_INSERT(BenchmarkStore.Kind.POSTGRES, "batched INSERT (reWriteBatchedInserts)");

    private final BenchmarkStore.Kind kind;
    private final String label;

    Variant(BenchmarkStore.Kind kind, String label) {
      this.kind = kind;
      this.label = label;
    }

    public String label() {
      return label;
    }

    public BenchmarkStore.Kind kind() {
      return kind;
    }

    static List<Variant> of(BenchmarkStore.Kind kind) {
      List<Variant> variants = new ArrayList<>();
      for (Variant v : values()) {
        if (v.kind == kind) {
          variants.add(v);
        }
      }
      return variants;
    }
  }

  /**
   * What one variant achieved.
   *
   * @param people valid people of the file (rows imported)
   * @param importRows rows the import wrote (run record updates not counted)
   * @param synced HR objects the synchronisation read
   * @param syncRows rows the synchronisation wrote or updated
   */
  public record Measured(
      Variant variant,
      long people,
      double importSeconds,
      long importRows,
      long synced,
      double syncSeconds,
      long syncRows) {

    public double importPerSecond() {
      return people / importSeconds;
    }

    public double syncPerSecond() {
      return synced / syncSeconds;
    }

    /** False when only the import rows were written ({@code -Djimflow.benchmark.raw=import}). */
    public boolean syncMeasured() {
      return !Double.isNaN(syncSeconds);
    }
  }

  /** The variants of one run; the limit is the fastest import of them. */
  public record Result(BenchmarkStore.Kind kind, List<Measured> variants) {

    public Measured limit() {
      return Collections.max(
          variants, (a, b) -> Double.compare(a.importPerSecond(), b.importPerSecond()));
    }

    /** The fastest raw synchronisation of the run. */
    public Measured syncLimit() {
      return Collections.max(
          variants, (a, b) -> Double.compare(a.syncPerSecond(), b.syncPerSecond()));
    }
  }

  static final int PAGE = 2000;
  private static final String HR = "hr";

  @Test
  void rawLimit() throws Exception {
    Path csv = Path.of(System.getProperty("jimflow.benchmark.file"));
    int runs = Integer.getInteger("jimflow.benchmark.runs", 3);
    List<String> lines = new ArrayList<>();
    for (String name : System.getProperty("jimflow.benchmark.store", "postgres").split(",")) {
      BenchmarkStore.Kind kind = BenchmarkStore.Kind.parse(name);
      Map<Variant, List<Measured>> byVariant = new LinkedHashMap<>();
      for (int run = 1; run <= runs; run++) {
        Path work = Files.createTempDirectory("jimflow-raw-limit");
        try {
          int r = run;
          Result result =
              measure(
                  kind,
                  work,
                  csv,
                  r,
                  m -> System.out.println("raw limit: run " + r + ", " + line(m)));
          result
              .variants()
              .forEach(m -> byVariant.computeIfAbsent(m.variant(), v -> new ArrayList<>()).add(m));
          System.out.printf(
              Locale.ROOT,
              "raw limit: run %d, %s: the limit is %s, %,.0f people/s%n",
              run,
              kind.label(),
              result.limit().variant().label(),
              result.limit().importPerSecond());
        } finally {
          Files.deleteIfExists(work);
        }
      }
      byVariant.forEach(
          (variant, measured) ->
              lines.add(
                  String.format(
                      Locale.ROOT,
                      "| %s | %s | %s | %s |",
                      kind.label(),
                      variant.label(),
                      Spread.of(measured.stream().map(Measured::importPerSecond).toList()),
                      Spread.of(measured.stream().map(Measured::syncPerSecond).toList()))));
    }
    System.out.printf(
        "%nraw limit, %s, %d run(s), people/s, median (min–max):%n"
            + "| store | variant | import rows | sync rows |%n|---|---|---|---|%n%s%n",
        csv, runs, String.join("\n", lines));
  }

  /** One line for a measured variant. */
  public static String line(Measured m) {
    String importRows =
        String.format(
            Locale.ROOT,
            "%s %s: import %,d people in %.2f s = %,.0f people/s (%.2f rows/person)",
            m.variant().kind.label(),
            m.variant().label(),
            m.people(),
            m.importSeconds(),
            m.importPerSecond(),
            (double) m.importRows() / m.people());
    if (!m.syncMeasured()) {
      return importRows + "; sync rows not measured";
    }
    return importRows
        + String.format(
            Locale.ROOT,
            "; sync rows %,d people in %.2f s = %,.0f people/s (%.2f rows/person)",
            m.synced(),
            m.syncSeconds(),
            m.syncPerSecond(),
            (double) m.syncRows() / m.synced());
  }

  /**
   * Every variant of the store's kind, one after the other, each on a fresh store (an H2 file in a
   * new directory under {@code work}, or a new PostgreSQL schema) that it removes afterwards.
   *
   * @param run 1, 2, …: which variant goes first
   */
  public static Result measure(
      BenchmarkStore.Kind kind, Path work, Path csv, int run, Consumer<Measured> each)
      throws Exception {
    return measure(kind, work, csv, run, true, each);
  }

  /**
   * As {@link #measure(BenchmarkStore.Kind, Path, Path, int, Consumer)}; with {@code withSync}
   * false only the import rows are written and the raw sync rows are not measured (their figures
   * are NaN). At 1,000,000 people the raw sync rows take longer than the whole data plane.
   */
  public static Result measure(
      BenchmarkStore.Kind kind,
      Path work,
      Path csv,
      int run,
      boolean withSync,
      Consumer<Measured> each)
      throws Exception {
    List<Measured> all = new ArrayList<>();
    List<Variant> variants = Variant.of(kind);
    // Each run starts with another variant, so none always pays the JIT's warm-up.
    Collections.rotate(variants, -(run - 1));
    for (Variant variant : variants) {
      try (BenchmarkStore store = BenchmarkStore.open(kind, work.resolve("raw-" + variant))) {
        Measured measured =
            new Run(store.store(), new Writer(variant)).measure(variant, csv, withSync);
        each.accept(measured);
        all.add(measured);
      }
    }
    return new Result(kind, all);
  }

  /** One variant's import then synchronisation. */
  private static final class Run {
    private final Store store;
    private final Writer writer;
    private long rows;

    Run(Store store, Writer writer) {
      this.store = store;
      this.writer = writer;
    }

    Measured measure(Variant variant, Path csv, boolean withSync) {
      String importRun = runRecord("full-import", "FullImport");
      long start = System.nanoTime();
      long people = rawImport(csv, importRun);
      double importSeconds = (System.nanoTime() - start) / 1e9;
      long importRows = rows;
      rows = 0;
      if (!withSync) {
        return new Measured(variant, people, importSeconds, importRows, 0, Double.NaN, 0);
      }
      String syncRun = runRecord("full-sync", "FullSynchronisation");
      start = System.nanoTime();
      long synced = rawSync(syncRun);
      double syncSeconds = (System.nanoTime() - start) / 1e9;
      return new Measured(variant, people, importSeconds, importRows, synced, syncSeconds, rows);
    }

    private String runRecord(String profile, String type) {
      String id = UUID.randomUUID().toString();
      OffsetDateTime now = now();
      store.inTransaction(
          c -> {
            StringBuilder totals = new StringBuilder();
            for (String total :
                List.of(
                    "added",
                    "updated",
                    "deleted",
                    "projected",
                    "joined",
                    "attribute_flows",
                    "disconnected",
                    "disconnected_out_of_scope",
                    "drift_corrections",
                    "provisioned",
                    "exported",
                    "deprovisioned",
                    "pending_exports",
                    "confirmed",
                    "errors")) {
              totals.append(", total_").append(total);
            }
            try (PreparedStatement statement =
                c.prepareStatement(
                    "insert into run_record (id, connected_system_id, run_profile_id, run_type,"
                        + " status, attempts, objects_to_process, objects_processed, items_written"
                        + totals
                        + ", created_at, updated_at) values (?, ?, ?, ?, 'InProgress', 1, 0, 0, 0"
                        + ", 0".repeat(15)
                        + ", ?, ?)")) {
              statement.setString(1, id);
              statement.setString(2, HR);
              statement.setString(3, profile);
              statement.setString(4, type);
              statement.setObject(5, now);
              statement.setObject(6, now);
              statement.executeUpdate();
            }
            return null;
          });
      return id;
    }

    /** A page's progress, as the executor saves it with each page. */
    private void saveProgress(Connection c, String runId, long processed, long items)
        throws SQLException {
      try (PreparedStatement statement =
          c.prepareStatement(
              "update run_record set objects_processed = ?, items_written = ?, checkpoint = ?,"
                  + " updated_at = ? where id = ? and attempts = 1")) {
        statement.setLong(1, processed);
        statement.setLong(2, items);
        statement.setString(3, "rows:" + processed);
        statement.setObject(4, now());
        statement.setString(5, runId);
        statement.executeUpdate();
      }
    }

    private long rawImport(Path csv, String runId) {
      long people = 0;
      try (CsvObjectReader reader = CsvObjectReader.open(csv, "employeeId", CsvSettings.DEFAULT)) {
        List<ImportRow> page;
        while (!(page = reader.nextPage(PAGE)).isEmpty()) {
          List<Object[]> csos = new ArrayList<>(page.size());
          List<String> jsons = new ArrayList<>(page.size());
          List<ImportRow> valid = new ArrayList<>(page.size());
          OffsetDateTime now = now();
          for (ImportRow row : page) {
            if (row.isError()) {
              continue;
            }
            String json = AttributesJson.write(row.attributes());
            String hash = ContentHash.of(row.attributes());
            valid.add(row);
            jsons.add(json);
            csos.add(
                new Object[] {
                  HR,
                  "person",
                  row.anchor(),
                  json,
                  hash,
                  "Normal",
                  null,
                  null,
                  null,
                  true,
                  runId,
                  now,
                  now
                });
          }
          long first = people;
          people += valid.size();
          long processed = people;
          store.inTransaction(
              c -> {
                long[] ids = writer.insertCsos(c, csos);
                List<Object[]> changes = new ArrayList<>(ids.length);
                List<Object[]> items = new ArrayList<>(ids.length);
                for (int i = 0; i < ids.length; i++) {
                  String anchor = valid.get(i).anchor();
                  changes.add(new Object[] {ids[i], HR, anchor, "Added", jsons.get(i), runId, now});
                  items.add(
                      new Object[] {
                        runId, first + i, anchor, ids[i], null, "Added", null, null, now
                      });
                }
                writer.insert(c, Table.CSO_CHANGE, changes);
                writer.insert(c, Table.RUN_ITEM, items);
                saveProgress(c, runId, processed, processed);
                rows += 3L * ids.length;
                return null;
              });
        }
      }
      return people;
    }

    private long rawSync(String runId) {
      long[] range =
          store.inTransaction(
              c -> {
                try (PreparedStatement statement =
                    c.prepareStatement(
                        "select min(id), max(id) from cso where connected_system_id = ?")) {
                  statement.setString(1, HR);
                  try (ResultSet result = statement.executeQuery()) {
                    result.next();
                    return new long[] {result.getLong(1), result.getLong(2)};
                  }
                }
              });
      for (long from = range[0]; from <= range[1]; from += PAGE) {
        long first = from;
        store.inTransaction(
            c -> {
              syncPage(c, runId, first, first + PAGE - 1);
              saveProgress(c, runId, synced, itemsSoFar);
              return null;
            });
      }
      return synced;
    }

    /** One page of HR objects, by id window. */
    private void syncPage(Connection c, String runId, long from, long to) throws SQLException {
      List<Long> ids = new ArrayList<>();
      List<String> anchors = new ArrayList<>();
      List<Map<String, String>> people = new ArrayList<>();
      try (PreparedStatement statement =
          c.prepareStatement(
              // As the synchronisation pages: a bounded id window in id order, which H2 reads
              // from the (system, id) index.
              "select id, anchor, attributes from cso where connected_system_id = ?"
                  + " and id > ? and id <= ? order by id")) {
        statement.setString(1, HR);
        statement.setLong(2, from - 1);
        statement.setLong(3, to);
        try (ResultSet result = statement.executeQuery()) {
          while (result.next()) {
            ids.add(result.getLong(1));
            anchors.add(result.getString(2));
            people.add(AttributesJson.read(result.getString(3)));
          }
        }
      }
      OffsetDateTime now = now();
      List<Object[]> mvos = new ArrayList<>();
      List<Object[]> keys = new ArrayList<>();
      List<Object[]> mvoChanges = new ArrayList<>();
      List<Object[]> targets = new ArrayList<>();
      List<Map<String, String>> exports = new ArrayList<>();
      List<Long> joinedCsos = new ArrayList<>();
      List<String> joinedMvos = new ArrayList<>();
      List<Object[]> items = new ArrayList<>();
      for (int i = 0; i < people.size(); i++) {
        Map<String, String> hr = people.get(i);
        if ("Terminated".equals(hr.get("status"))) {
          continue;
        }
        String mvoId = UUID.randomUUID().toString();
        Map<String, String> mvo = new HashMap<>(hr);
        mvo.remove("status");
        String json = AttributesJson.write(mvo);
        mvos.add(new Object[] {mvoId, "person", json, null, now, now});
        keys.add(new Object[] {"person", "employeeId", hr.get("employeeId"), mvoId});
        mvoChanges.add(new Object[] {mvoId, "Projected", json, runId, now});
        joinedCsos.add(ids.get(i));
        joinedMvos.add(mvoId);
        items.add(new Object[] {runId, 0L, anchors.get(i), ids.get(i), mvoId, "Projected"});
        targets.add(provisioned("directory", "user", hr.get("employeeId"), mvoId, now));
        exports.add(
            Map.of(
                "employeeId", hr.get("employeeId"),
                "displayName", hr.get("displayName"),
                "givenName", hr.get("firstName"),
                "surname", hr.get("lastName"),
                "mail", hr.get("email"),
                "department", hr.get("department"),
                "title", hr.get("jobTitle")));
        if ("Employee".equals(hr.get("employeeType"))) {
          targets.add(provisioned("badges", "badge", hr.get("employeeId"), mvoId, now));
          exports.add(
              Map.of(
                  "employeeId", hr.get("employeeId"),
                  "holderName", hr.get("displayName"),
                  "location", hr.get("location"),
                  "department", hr.get("department")));
        }
      }
      writer.insert(c, Table.MVO, mvos);
      writer.insert(c, Table.MVO_KEY, keys);
      writer.insert(c, Table.MVO_CHANGE, mvoChanges);
      writer.join(c, joinedCsos, joinedMvos, now);
      long[] targetIds = writer.insertCsos(c, targets);
      List<Object[]> pending = new ArrayList<>(targetIds.length);
      for (int i = 0; i < targetIds.length; i++) {
        Object[] target = targets.get(i);
        pending.add(
            new Object[] {
              target[0],
              targetIds[i],
              target[6],
              "Add",
              AttributesJson.write(exports.get(i)),
              "Pending",
              false,
              runId,
              now
            });
        items.add(new Object[] {runId, 0L, target[2], targetIds[i], target[6], "Provisioned"});
      }
      writer.insert(c, Table.PENDING_EXPORT, pending);
      long sequence = itemsSoFar;
      List<Object[]> runItems = new ArrayList<>(items.size());
      for (Object[] item : items) {
        runItems.add(
            new Object[] {
              item[0], sequence++, item[2], item[3], item[4], item[5], null, null, now
            });
      }
      itemsSoFar = sequence;
      writer.insert(c, Table.RUN_ITEM, runItems);
      rows +=
          mvos.size()
              + keys.size()
              + mvoChanges.size()
              + joinedCsos.size()
              + targets.size()
              + pending.size()
              + runItems.size();
      synced += people.size();
    }

    private long itemsSoFar;
    private long synced;

    private static Object[] provisioned(
        String system, String type, String anchor, String mvoId, OffsetDateTime now) {
      return new Object[] {
        system,
        type,
        anchor,
        "{}",
        "",
        "PendingProvisioning",
        mvoId,
        "Provisioned",
        now,
        false,
        null,
        now,
        now
      };
    }
  }

  private static OffsetDateTime now() {
    return OffsetDateTime.now(ZoneOffset.UTC);
  }

  /** A table the raw runs write, with its columns (without the identity) and its natural key. */
  enum Table {
    CSO(
        "cso",
        List.of(
            "connected_system_id",
            "object_type",
            "anchor",
            "attributes",
            "content_hash",
            "state",
            "mvo_id",
            "join_type",
            "joined_at",
            "sync_pending",
            "last_seen_run",
            "created_at",
            "updated_at"),
        List.of("anchor", "connected_system_id", "object_type")),
    CSO_CHANGE(
        "cso_change",
        List.of(
            "cso_id",
            "connected_system_id",
            "anchor",
            "change_type",
            "attributes",
            "run_record_id",
            "changed_at"),
        List.of()),
    RUN_ITEM(
        "run_item",
        List.of(
            "run_record_id",
            "seq",
            "object_ref",
            "cso_id",
            "mvo_id",
            "change_type",
            "error_type",
            "error_message",
            "created_at"),
        List.of("run_record_id", "seq")),
    MVO(
        "mvo",
        List.of(
            "id", "object_type", "attributes", "deletion_eligible_at", "created_at", "updated_at"),
        List.of("id")),
    MVO_KEY(
        "mvo_key",
        List.of("object_type", "attribute", "attr_value", "mvo_id"),
        List.of("attr_value", "attribute", "object_type", "mvo_id")),
    MVO_CHANGE(
        "mvo_change",
        List.of("mvo_id", "change_type", "attributes", "run_record_id", "changed_at"),
        List.of()),
    PENDING_EXPORT(
        "pending_export",
        List.of(
            "connected_system_id",
            "cso_id",
            "mvo_id",
            "change_type",
            "attributes",
            "status",
            "drift_correction",
            "created_by_run",
            "created_at"),
        List.of());

    final String name;
    final List<String> columns;
    final List<String> key;

    Table(String name, List<String> columns, List<String> key) {
      this.name = name;
      this.columns = columns;
      this.key = key;
    }

    String columnList() {
      return String.join(", ", columns);
    }
  }

  /** Writes rows by one variant's means. */
  private static final class Writer {
    private final Variant variant;

    Writer(Variant variant) {
      this.variant = variant;
    }

    void insert(Connection c, Table table, List<Object[]> rows) throws SQLException {
      if (rows.isEmpty()) {
        return;
      }
      switch (variant) {
        case PG_COPY -> copy(c, table.name, table.columnList(), rows);
        case PG_INSERT -> batch(c, insertSql(table), rows, false);
      }
    }

    /** Inserts CSOs and returns their ids, in the order of the rows. */
    long[] insertCsos(Connection c, List<Object[]> rows) throws SQLException {
      if (rows.isEmpty()) {
        return new long[0];
      }
      switch (variant) {
        case PG_COPY, PG_INSERT -> {
          // Ids drawn from the identity's sequence for the whole page in one statement.
          long[] ids = new long[rows.size()];
          try (PreparedStatement statement =
              c.prepareStatement(
                  "select nextval(pg_get_serial_sequence('cso', 'id')) from generate_series(1, ?)")) {
            statement.setInt(1, rows.size());
            try (ResultSet result = statement.executeQuery()) {
              for (int i = 0; result.next(); i++) {
                ids[i] = result.getLong(1);
              }
            }
          }
          List<Object[]> withIds = new ArrayList<>(rows.size());
          for (int i = 0; i < rows.size(); i++) {
            Object[] row = new Object[rows.get(i).length + 1];
            row[0] = ids[i];
            System.arraycopy(rows.get(i), 0, row, 1, rows.get(i).length);
            withIds.add(row);
          }
          String columns = "id, " + Table.CSO.columnList();
          if (variant == Variant.PG_COPY) {
            copy(c, "cso", columns, withIds);
          } else {
            batch(
                c,
                "insert into cso ("
                    + columns
                    + ") values ("
                    + marks(Table.CSO.columns.size() + 1)
                    + ")",
                withIds,
                false);
          }
          return ids;
        }
      }
      throw new IllegalStateException(variant.name());
    }

    /** The join: the HR objects get their new MVO, in one set-based statement where possible. */
    void join(Connection c, List<Long> csoIds, List<String> mvoIds, OffsetDateTime now)
        throws SQLException {
      if (csoIds.isEmpty()) {
        return;
      }
      switch (variant) {
        case PG_COPY, PG_INSERT -> {
          try (PreparedStatement statement =
              c.prepareStatement(
                  "update cso set mvo_id = v.mvo_id, join_type = 'Projected', joined_at = ?,"
                      + " sync_pending = false from unnest(?::bigint[], ?::varchar[]) as v(id,"
                      + " mvo_id) where cso.id = v.id")) {
            statement.setObject(1, now);
            statement.setArray(2, c.createArrayOf("bigint", csoIds.toArray()));
            statement.setArray(3, c.createArrayOf("varchar", mvoIds.toArray()));
            statement.executeUpdate();
          }
        }
      }
    }

    private static String insertSql(Table table) {
      return "insert into "
          + table.name
          + " ("
          + table.columnList()
          + ") values ("
          + marks(table.columns.size())
          + ")";
    }

    private static String mergeSql(Table table) {
      return "merge into "
          + table.name
          + " ("
          + table.columnList()
          + ") key ("
          + String.join(", ", table.key)
          + ") values ("
          + marks(table.columns.size())
          + ")";
    }

    private static String marks(int count) {
      return String.join(", ", Collections.nCopies(count, "?"));
    }

    /** One JDBC batch; with {@code keys}, returns the generated ids in the order of the rows. */
    private static long[] batch(Connection c, String sql, List<Object[]> rows, boolean keys)
        throws SQLException {
      try (PreparedStatement statement =
          keys ? c.prepareStatement(sql, new String[] {"ID"}) : c.prepareStatement(sql)) {
        for (Object[] row : rows) {
          for (int i = 0; i < row.length; i++) {
            statement.setObject(i + 1, row[i]);
          }
          statement.addBatch();
        }
        statement.executeBatch();
        if (!keys) {
          return null;
        }
        long[] ids = new long[rows.size()];
        try (ResultSet generated = statement.getGeneratedKeys()) {
          for (int i = 0; generated.next(); i++) {
            ids[i] = generated.getLong(1);
          }
        }
        return ids;
      }
    }

    private static void unnest(Connection c, String insert, List<Object[]> rows)
        throws SQLException {
      try (PreparedStatement statement =
          c.prepareStatement(insert + " select * from unnest(" + marks(rows.get(0).length) + ")")) {
        bindArrays(statement, rows);
        statement.executeUpdate();
      }
    }

    /** Binds each column of the rows as one array parameter, typed by its first non-null value. */
    private static void bindArrays(PreparedStatement statement, List<Object[]> rows)
        throws SQLException {
      int columns = rows.get(0).length;
      for (int column = 0; column < columns; column++) {
        Class<?> type = String.class;
        for (Object[] row : rows) {
          if (row[column] != null) {
            type = row[column].getClass();
            break;
          }
        }
        Object[] values = (Object[]) Array.newInstance(type, rows.size());
        for (int i = 0; i < rows.size(); i++) {
          values[i] = rows.get(i)[column];
        }
        statement.setObject(column + 1, values);
      }
    }

    /** {@code COPY table (columns) FROM STDIN (FORMAT csv)}: every string quoted, null empty. */
    private static void copy(Connection c, String table, String columns, List<Object[]> rows)
        throws SQLException {
      StringBuilder csv = new StringBuilder(rows.size() * 256);
      for (Object[] row : rows) {
        for (int i = 0; i < row.length; i++) {
          if (i > 0) {
            csv.append(',');
          }
          Object value = row[i];
          if (value instanceof String text) {
            csv.append('"').append(text.replace("\"", "\"\"")).append('"');
          } else if (value != null) {
            csv.append(value);
          }
        }
        csv.append('\n');
      }
      try {
        c.unwrap(PGConnection.class)
            .getCopyAPI()
            .copyIn(
                "copy " + table + " (" + columns + ") from stdin (format csv)",
                new StringReader(csv.toString()));
      } catch (IOException e) {
        throw new SQLException("COPY into " + table + " failed: " + e.getMessage(), e);
      }
    }
  }

  /** Median and range of a few figures. */
  public record Spread(double median, double min, double max) {

    public static Spread of(List<Double> values) {
      List<Double> sorted = values.stream().sorted().collect(Collectors.toList());
      int n = sorted.size();
      double median =
          n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
      return new Spread(median, sorted.get(0), sorted.get(n - 1));
    }

    /** {@code 12,345 (12,001–12,999)} or, for one value, just it. */
    public String format(String pattern) {
      String m = String.format(Locale.ROOT, pattern, median);
      return min == max
          ? m
          : m
              + " ("
              + String.format(Locale.ROOT, pattern, min)
              + "–"
              + String.format(Locale.ROOT, pattern, max)
              + ")";
    }

    @Override
    public String toString() {
      return format("%,.0f");
    }
  }
}
