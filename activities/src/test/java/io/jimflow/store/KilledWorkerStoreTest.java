package io.jimflow.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.jimflow.store.ConnectorSpace.NewCso;
import io.jimflow.store.PendingExports.NewPendingExport;
import io.jimflow.store.SystemCatalog.ProfileEntry;
import io.jimflow.store.SystemCatalog.SystemEntry;
import io.jimflow.sync.ExportChange;
import io.jimflow.testing.TestPostgres;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store stays consistent when its worker process is killed (SIGKILL) in the middle of an
 * export, kill after kill, and the run resumes on it to the end.
 *
 * <p>A worker process ({@link KilledExportWorker}) runs an attempt of an export run on the store (a
 * schema of the tests' PostgreSQL, {@link TestPostgres}), one transaction per exported object as
 * the LDAP export commits them, and is killed with {@link Process#destroyForcibly()} at a random
 * moment while it exports. The test then opens the store as the next worker would and checks what a
 * user would notice: the system's exports counted by status through the index the export pages with
 * ({@code pending_export_status}) equal the counts by table scan, and the export's page query finds
 * every Pending export; the run record is found by its key, its items written equal its run items,
 * its objects processed and Exported total equal the Exported exports, and its checkpoint divides
 * the Exported exports from the Pending ones. The next cycle's worker is the run's next attempt and
 * resumes from that checkpoint; one that cannot (a run item's key still taken by a rolled-back
 * insert) fails the cycle with its output. After the last kill one worker exports the rest, and
 * every export has been exported exactly once.
 *
 * <p>The embedded H2 store that came before broke here in about one kill in ten (a lost or kept
 * index entry, a torn transaction); PostgreSQL, the store since (docs/store.md), has not. It runs
 * in every {@code ./mvnw verify} with {@value #DEFAULT_KILLS} kills (2 to 4 s each on a 2-core
 * machine); {@code -Djimflow.test.kills=<n>} runs it with that many, {@code
 * -Djimflow.test.seed=<seed>} replays the kill delays of a failed run.
 */
class KilledWorkerStoreTest {

  private static final String SYSTEM = "directory";

  /** The kills of a normal run. */
  static final int DEFAULT_KILLS = 20;

  /** The Pending exports the run starts with. */
  private static final int EXPORTS = 20_000;

  /**
   * The fewest Pending exports a kill cycle starts with: a worker exports about 5,000 a second on a
   * 2-core machine. When fewer are left, more are added, also at least twice as many as the most
   * one cycle has exported, so that no worker runs out before its kill.
   */
  private static final int EXPORTS_PER_CYCLE = 10_000;

  /** The shortest delay from the worker's first committed export to its kill. */
  private static final int KILL_AFTER_MS = 200;

  /** How much longer than {@link #KILL_AFTER_MS} the delay may be, at random. */
  private static final int KILL_SPREAD_MS = 700;

  private static final long WORKER_TIMEOUT_SECONDS = 120;

  /** The system's exports with a status, counted as the export's page query reads them. */
  private static final String INDEXED_COUNT =
      "select count(*) from pending_export where connected_system_id = ? and status = ?";

  /**
   * The system's exports by status, and how many of each come after a checkpoint's export id, read
   * by a table scan ({@link #tableScansOnly}).
   */
  private static final String SCANNED_BY_STATUS =
      "select status, count(*), sum(case when id > ? then 1 else 0 end) from pending_export"
          + " where connected_system_id = ? group by status";

  private final Clock clock = Clock.systemUTC();
  private final SystemCatalog catalog = new SystemCatalog(clock);
  private final ConnectorSpace connectorSpace = new ConnectorSpace(clock);
  private final PendingExports pendingExports = new PendingExports(clock);
  private final RunRecords runRecords = new RunRecords(clock);

  private final TestPostgres.Schema schema = TestPostgres.newSchema();
  private final StoreSettings settings = TestStores.settings(schema);

  /** The exports created so far. */
  private long created;

  @AfterEach
  void dropSchema() throws SQLException {
    schema.close();
  }

  @Test
  void theStoreStaysConsistentWhenItsWorkerIsKilledMidExport() throws Exception {
    int kills = Integer.getInteger("jimflow.test.kills", DEFAULT_KILLS);
    long seed = Long.getLong("jimflow.test.seed", new Random().nextLong());
    Random random = new Random(seed);
    String runId;
    try (Store store = Store.open(settings)) {
      store.inTransaction(
          c -> {
            catalog.save(
                c,
                List.of(
                    new SystemEntry(
                        SYSTEM,
                        "Directory",
                        "ldap",
                        List.of(new ProfileEntry("export", "Directory Export", RunType.Export)))));
            return null;
          });
      addExports(store, EXPORTS);
      runId =
          store.inTransaction(
              c ->
                  runRecords.create(
                      c,
                      new NewRunRecord(
                          SYSTEM,
                          "export",
                          RunType.Export,
                          new RunOrigin(
                              "Schedule",
                              "nightly",
                              "Nightly",
                              "exec-1",
                              "nightly",
                              0,
                              "Directory export"))));
      // The comparison means something only if one count reads the index and the other does not.
      assertThat(plan(store, false)).contains("pending_export_status");
      assertThat(plan(store, true)).contains("Seq Scan on pending_export").doesNotContain("Index");
    }

    long exported = 0;
    long mostInACycle = 0;
    for (int cycle = 1; cycle <= kills; cycle++) {
      int delay = KILL_AFTER_MS + random.nextInt(KILL_SPREAD_MS + 1);
      String context =
          String.format(
              "cycle %d of %d (seed %d, -Djimflow.test.seed=%d to replay), worker (attempt %d)"
                  + " to be killed %d ms after its first export",
              cycle, kills, seed, seed, cycle, delay);
      try (Worker worker = Worker.start(settings, runId, cycle)) {
        worker.awaitExporting(context);
        Thread.sleep(delay);
        worker.kill(context);
      }

      StoreState state = inspect(runId, context);
      assertThat(state.problems()).as("%s; the store after the kill: %s", context, state).isEmpty();

      mostInACycle = Math.max(mostInACycle, state.scanned(ExportStatus.Exported) - exported);
      exported = state.scanned(ExportStatus.Exported);
      long wanted = Math.max(EXPORTS_PER_CYCLE, 2 * mostInACycle);
      if (state.scanned(ExportStatus.Pending) < wanted) {
        try (Store store = Store.open(settings)) {
          addExports(store, (int) wanted);
        }
      }
    }

    String context =
        String.format(
            "the run to its end after %d kills (seed %d), attempt %d", kills, seed, kills + 1);
    try (Worker worker = Worker.start(settings, runId, kills + 1)) {
      worker.awaitEnd(context);
    }
    StoreState state = inspect(runId, context);
    assertThat(state.problems()).as("%s; the store: %s", context, state).isEmpty();
    assertThat(state.scanned(ExportStatus.Exported))
        .as("%s: Exported of the %d exports; the store: %s", context, created, state)
        .isEqualTo(created);
    RunRecord record = state.record().orElseThrow();
    assertThat(record.status())
        .as("%s: the run record's status", context)
        .isEqualTo(RunStatus.Complete);
    assertThat(record.totals().get(Total.EXPORTED))
        .as("%s: the run record's Exported total", context)
        .isEqualTo(created);
    assertThat(record.itemsWritten()).as("%s: the run record's items", context).isEqualTo(created);
  }

  /** Adds Pending exports of new provisioned CSOs of the system, a page per transaction. */
  private void addExports(Store store, int count) {
    for (int done = 0; done < count; done += KilledExportWorker.PAGE_SIZE) {
      long first = created + done;
      int page = Math.min(KilledExportWorker.PAGE_SIZE, count - done);
      store.inTransaction(
          c -> {
            List<NewCso> csos = new ArrayList<>(page);
            for (long i = first; i < first + page; i++) {
              csos.add(
                  StoreContractTest.provisionedUser(
                      "uid=user" + i + ",ou=people,dc=example,dc=org"));
            }
            Map<String, Long> ids = connectorSpace.insert(c, csos);
            List<NewPendingExport> exports = new ArrayList<>(page);
            for (int i = 0; i < page; i++) {
              NewCso cso = csos.get(i);
              exports.add(
                  new NewPendingExport(
                      SYSTEM,
                      ids.get(cso.anchor()),
                      null,
                      ExportChange.Create,
                      Map.of("uid", "user" + (first + i), "cn", "User " + (first + i)),
                      false,
                      null));
            }
            pendingExports.insert(c, exports);
            return null;
          });
    }
    created += count;
  }

  /** The plan of the indexed count, or with {@code scan} of the same count by table scan. */
  private static String plan(Store store, boolean scan) {
    return store.inTransaction(
        c -> {
          if (scan) {
            tableScansOnly(c);
          } else {
            indexScansOnly(c);
          }
          try (PreparedStatement explain = c.prepareStatement("explain " + INDEXED_COUNT)) {
            explain.setString(1, SYSTEM);
            explain.setString(2, ExportStatus.Pending.name());
            StringBuilder plan = new StringBuilder();
            try (ResultSet rows = explain.executeQuery()) {
              while (rows.next()) {
                plan.append(rows.getString(1)).append('\n');
              }
            }
            return plan.toString();
          }
        });
  }

  /** Lets the rest of the transaction read tables only by scanning them, never an index. */
  private static void tableScansOnly(Connection c) throws SQLException {
    scans(c, true);
  }

  /** Lets the rest of the transaction read tables through an index wherever one serves. */
  private static void indexScansOnly(Connection c) throws SQLException {
    scans(c, false);
  }

  private static void scans(Connection c, boolean tableScans) throws SQLException {
    try (Statement statement = c.createStatement()) {
      statement.execute("set local enable_seqscan = " + tableScans);
      for (String index : List.of("indexscan", "indexonlyscan", "bitmapscan")) {
        statement.execute("set local enable_" + index + " = " + !tableScans);
      }
    }
  }

  /** Opens the store as the next worker would and reads what it holds. */
  private StoreState inspect(String runId, String context) {
    Store store;
    try {
      store = Store.open(settings);
    } catch (RuntimeException e) {
      return fail(context + ": the store does not open", e);
    }
    try (store) {
      return store.inTransaction(c -> read(c, runId));
    } catch (RuntimeException e) {
      return fail(context + ": reading the store failed", e);
    }
  }

  private StoreState read(Connection c, String runId) throws SQLException {
    Optional<RunRecord> record = runRecords.find(c, runId);
    long position = KilledExportWorker.position(record.map(RunRecord::checkpoint).orElse(null));
    Map<ExportStatus, Long> indexed = new EnumMap<>(ExportStatus.class);
    Map<ExportStatus, Long> scanned = new EnumMap<>(ExportStatus.class);
    indexScansOnly(c);
    long itemsIndexed = runRecords.countItems(c, runId);
    for (ExportStatus status : ExportStatus.values()) {
      indexed.put(status, count(c, INDEXED_COUNT, SYSTEM, status.name()));
      scanned.put(status, 0L);
    }
    long afterCheckpoint = 0;
    long pendingAfterCheckpoint = 0;
    tableScansOnly(c);
    long itemsScanned = count(c, "select count(*) from run_item where run_record_id = ?", runId);
    try (PreparedStatement statement = c.prepareStatement(SCANNED_BY_STATUS)) {
      statement.setLong(1, position);
      statement.setString(2, SYSTEM);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          ExportStatus status = ExportStatus.valueOf(rows.getString(1));
          scanned.put(status, rows.getLong(2));
          afterCheckpoint += rows.getLong(3);
          if (status == ExportStatus.Pending) {
            pendingAfterCheckpoint = rows.getLong(3);
          }
        }
      }
    }
    indexScansOnly(c);
    long paged = 0;
    long after = 0;
    while (true) {
      List<PendingExportRow> page =
          pendingExports.findPendingAfter(c, SYSTEM, after, KilledExportWorker.PAGE_SIZE);
      if (page.isEmpty()) {
        break;
      }
      paged += page.size();
      after = page.get(page.size() - 1).id();
    }
    return new StoreState(
        indexed,
        scanned,
        paged,
        record,
        itemsIndexed,
        itemsScanned,
        afterCheckpoint - pendingAfterCheckpoint,
        scanned.get(ExportStatus.Pending) - pendingAfterCheckpoint);
  }

  private static long count(Connection c, String query, Object... arguments) throws SQLException {
    try (PreparedStatement statement = c.prepareStatement(query)) {
      for (int i = 0; i < arguments.length; i++) {
        statement.setObject(i + 1, arguments[i]);
      }
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }

  /**
   * What the store holds for the system and the run.
   *
   * @param indexed the system's exports by status, counted through {@code pending_export_status}
   * @param scanned the same, counted by a table scan
   * @param paged the Pending exports the export's page query ({@link
   *     PendingExports#findPendingAfter}) returns, page after page
   * @param record the run record, read by its primary key
   * @param itemsIndexed the run's items, counted through its (run record, sequence) key
   * @param itemsScanned the same, counted by a table scan
   * @param doneAfterCheckpoint exports no longer Pending with ids after the run's checkpoint
   * @param pendingUpToCheckpoint Pending exports with ids up to the run's checkpoint
   */
  private record StoreState(
      Map<ExportStatus, Long> indexed,
      Map<ExportStatus, Long> scanned,
      long paged,
      Optional<RunRecord> record,
      long itemsIndexed,
      long itemsScanned,
      long doneAfterCheckpoint,
      long pendingUpToCheckpoint) {

    long scanned(ExportStatus status) {
      return scanned.get(status);
    }

    /** What is inconsistent; empty when nothing is. */
    List<String> problems() {
      List<String> problems = new ArrayList<>();
      for (ExportStatus status : ExportStatus.values()) {
        if (!indexed.get(status).equals(scanned.get(status))) {
          problems.add(
              String.format(
                  "%s exports: %d through the index pending_export_status, %d by table scan",
                  status, indexed.get(status), scanned.get(status)));
        }
      }
      if (paged != scanned(ExportStatus.Pending)) {
        problems.add(
            String.format(
                "the export's page query finds %d Pending exports, a table scan %d",
                paged, scanned(ExportStatus.Pending)));
      }
      if (itemsIndexed != itemsScanned) {
        problems.add(
            String.format(
                "run items: %d through the run item key, %d by table scan",
                itemsIndexed, itemsScanned));
      }
      if (record.isEmpty()) {
        problems.add("the run record is not found by its primary key");
        return problems;
      }
      RunRecord run = record.get();
      long exported = scanned(ExportStatus.Exported);
      if (run.itemsWritten() != itemsScanned) {
        problems.add(
            String.format(
                "the run record has written %d items, it has %d",
                run.itemsWritten(), itemsScanned));
      }
      if (run.objectsProcessed() != exported) {
        problems.add(
            String.format(
                "the run record has processed %d objects, %d exports are Exported",
                run.objectsProcessed(), exported));
      }
      if (run.totals().get(Total.EXPORTED) != exported) {
        problems.add(
            String.format(
                "the run record's Exported total is %d, %d exports are Exported",
                run.totals().get(Total.EXPORTED), exported));
      }
      if (doneAfterCheckpoint != 0 || pendingUpToCheckpoint != 0) {
        problems.add(
            String.format(
                "checkpoint %s: %d exports after it are no longer Pending, %d up to it still are",
                run.checkpoint(), doneAfterCheckpoint, pendingUpToCheckpoint));
      }
      return problems;
    }

    @Override
    public String toString() {
      StringBuilder text = new StringBuilder("exports of ").append(SYSTEM);
      for (ExportStatus status : ExportStatus.values()) {
        text.append(
            String.format(
                ", %s %d by index / %d by scan", status, indexed.get(status), scanned.get(status)));
      }
      text.append(String.format(", %d Pending by the export's page query", paged));
      text.append(String.format("; run items %d by key / %d by scan", itemsIndexed, itemsScanned));
      record.ifPresentOrElse(
          run ->
              text.append(
                  String.format(
                      "; run record: attempt %d, %s, items written %d, objects processed %d,"
                          + " Exported total %d, checkpoint %s",
                      run.attempts(),
                      run.status(),
                      run.itemsWritten(),
                      run.objectsProcessed(),
                      run.totals().get(Total.EXPORTED),
                      run.checkpoint())),
          () -> text.append("; no run record"));
      return text.toString();
    }
  }

  /** A worker process and what it prints (stdout and stderr); closing it kills it. */
  private static final class Worker implements AutoCloseable {

    private final Process process;
    private final StringBuffer output = new StringBuffer();
    private final CompletableFuture<Void> exporting = new CompletableFuture<>();
    private final Thread reader;

    private Worker(Process process) {
      this.process = process;
      this.reader = new Thread(this::read, "killed-worker-output");
      reader.setDaemon(true);
      reader.start();
    }

    /**
     * Starts a worker on the test's class path. C1 only ({@code TieredStopAtLevel=1}): a worker
     * lives about a second, and exports several times faster in it with C1's quick compilation than
     * while C2 is still compiling.
     */
    static Worker start(StoreSettings settings, String runId, int attempt) throws IOException {
      return new Worker(
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-XX:TieredStopAtLevel=1",
                  "-XX:+UseSerialGC",
                  "-cp",
                  System.getProperty("java.class.path"),
                  KilledExportWorker.class.getName(),
                  settings.url(),
                  settings.user(),
                  settings.password(),
                  SYSTEM,
                  runId,
                  Integer.toString(attempt))
              .redirectErrorStream(true)
              .start());
    }

    private void read() {
      try (BufferedReader lines =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = lines.readLine()) != null) {
          output.append(line).append('\n');
          if (line.equals(KilledExportWorker.EXPORTING)) {
            exporting.complete(null);
          }
        }
      } catch (IOException e) {
        // The stream broke with the killed process: what it printed before is kept.
      }
    }

    /** Waits until the worker's first export has committed; fails if it ends or hangs first. */
    void awaitExporting(String context) throws Exception {
      try {
        CompletableFuture.anyOf(exporting, process.onExit())
            .get(WORKER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        String threads = threadDump();
        close();
        fail(
            "%s: the worker did not start exporting within %d s; it printed:%n%s%nits threads:%n%s",
            context, WORKER_TIMEOUT_SECONDS, output(), threads);
      }
      if (!exporting.isDone()) {
        close();
        fail(
            "%s: the worker ended (exit code %d) before its first export; it printed:%n%s",
            context, process.exitValue(), output());
      }
    }

    /** Kills the worker with SIGKILL; fails if it had ended by itself. */
    void kill(String context) throws InterruptedException {
      if (!process.isAlive()) {
        close();
        fail(
            "%s: the worker ended (exit code %d) before it was killed; it printed:%n%s",
            context, process.exitValue(), output());
      }
      close();
    }

    /** Waits until the worker has exported everything and ended. */
    void awaitEnd(String context) throws InterruptedException {
      if (!process.waitFor(WORKER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        String threads = threadDump();
        close();
        fail(
            "%s: the worker did not end within %d s; it printed:%n%s%nits threads:%n%s",
            context, WORKER_TIMEOUT_SECONDS, output(), threads);
      }
      reader.join(TimeUnit.SECONDS.toMillis(10));
      assertThat(process.exitValue())
          .as("%s: the worker's exit code; it printed:%n%s", context, output())
          .isZero();
      assertThat(output())
          .as("%s: what the worker printed", context)
          .contains(KilledExportWorker.FINISHED);
    }

    String output() {
      return output.toString();
    }

    /** The worker's threads as {@code jcmd <pid> Thread.print} lists them: where it hangs. */
    private String threadDump() {
      try {
        Path file = Files.createTempFile("killed-worker-threads", ".txt");
        try {
          Process jcmd =
              new ProcessBuilder(
                      Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                      Long.toString(process.pid()),
                      "Thread.print")
                  .redirectErrorStream(true)
                  .redirectOutput(file.toFile())
                  .start();
          if (!jcmd.waitFor(30, TimeUnit.SECONDS)) {
            jcmd.destroyForcibly();
          }
          return Files.readString(file);
        } finally {
          Files.deleteIfExists(file);
        }
      } catch (IOException | InterruptedException e) {
        return "(no thread dump: " + e + ")";
      }
    }

    /**
     * Kills the worker (SIGKILL) if it still runs and waits until it is gone, and its lock on the
     * store's file with it.
     */
    @Override
    public void close() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor();
      reader.join(TimeUnit.SECONDS.toMillis(10));
    }
  }
}
