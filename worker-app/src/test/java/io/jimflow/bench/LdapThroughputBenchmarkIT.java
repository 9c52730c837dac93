package io.jimflow.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPURL;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import io.jimflow.connector.ldap.LdapExports;
import io.jimflow.dataplane.RunProfileExecutorImpl;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.DataPlaneConfigLoader;
import io.jimflow.e2e.OpenLdapServer;
import io.jimflow.exampledata.activities.CsvExampleDataWriter;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.schedule.steps.StepProgress;
import io.jimflow.secrets.activities.WorkerSecrets;
import io.jimflow.store.Store;
import io.jimflow.store.StoreSettings;
import io.jimflow.testing.TestPostgres;
import io.jimflow.worker.dev.EmbeddedDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * LDAP throughput of the data plane, the embedded directory (UnboundID's in-memory server, as
 * {@code ./jimflow dev} runs it) and OpenLDAP's {@code slapd} (as {@code OpenLdapIT} starts it)
 * side by side in one run: an Export of {@code entries} adds, then a Full Import of those entries.
 * A benchmark, not a test: it runs only with {@code -Djimflow.benchmark=true}.
 *
 * <p>Run: {@code ./mvnw -B -ntp verify -pl worker-app -am -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=LdapThroughputBenchmarkIT
 * -Djimflow.benchmark=true}; the report lands in {@code worker-app/target/benchmarks/ldap.md}.
 * Smaller: {@code -Djimflow.benchmark.entries=10000 -Djimflow.benchmark.rounds=1}; one directory:
 * {@code -Djimflow.benchmark.directories=embedded} (or {@code openldap}).
 *
 * <p>Once, the HR people are imported and synchronised into a store (a database of the tests'
 * PostgreSQL, {@code TestPostgres}), leaving one pending add per person for the directory; each
 * round copies that store (a database made from it as template) and runs the Export against a
 * fresh, empty directory (a page of adds pipelined, its outcomes committed together), then the Full
 * Import of the directory (paged search) into a fresh store. Then, as the directory's own limits,
 * the same entries are added into fresh subtrees of the same directory by the SDK alone: one
 * synchronous add at a time on one connection, and pipelined on one connection (the export's
 * window). Last, the HR file's every title changes, and the Export of that delta (one modify per
 * person) is timed. Rounds alternate the order of the two directories.
 */
@EnabledIfSystemProperty(named = "jimflow.benchmark", matches = "true")
class LdapThroughputBenchmarkIT {

  private static final int ENTRIES = Integer.getInteger("jimflow.benchmark.entries", 100_000);
  private static final int ROUNDS = Integer.getInteger("jimflow.benchmark.rounds", 3);

  /** Which directories the rounds measure: {@code embedded}, {@code openldap} or both. */
  private static final List<String> DIRECTORIES =
      List.of(System.getProperty("jimflow.benchmark.directories", "embedded,openldap").split(","))
          .stream()
          .map(String::trim)
          .filter(d -> d.equals("embedded") || d.equals("openldap"))
          .toList();

  private static final String PASSWORD = OpenLdapServer.BIND_PASSWORD;
  private static final String PEOPLE = "ou=people,dc=example,dc=org";
  private static final Initiator BENCH = new Initiator(InitiatorType.System, "bench", "benchmark");

  /**
   * One directory's figures of one round: the Export's adds, the Full Import, the raw adds of the
   * same entries into fresh subtrees (synchronous on one connection, and pipelined), and the Export
   * of a delta that changes every title (modifies).
   */
  private record Measurement(
      String directory,
      int round,
      long exported,
      double exportSeconds,
      long imported,
      double importSeconds,
      double rawSyncSeconds,
      double rawPipelinedSeconds,
      long modified,
      double modifySeconds,
      String loadBefore,
      String loadAfter) {
    double exportRate() {
      return exported / exportSeconds;
    }

    double importRate() {
      return imported / importSeconds;
    }

    double rawSyncRate() {
      return exported / rawSyncSeconds;
    }

    double rawPipelinedRate() {
      return exported / rawPipelinedSeconds;
    }

    double modifyRate() {
      return modified / modifySeconds;
    }
  }

  /** A directory server of one round. */
  private interface Directory extends AutoCloseable {
    String url();

    @Override
    void close();
  }

  @TempDir Path work;

  @Test
  void exportAndFullImportOfTheSameEntriesOnBothDirectories() throws Exception {
    assertThat(DIRECTORIES).as("-Djimflow.benchmark.directories: embedded, openldap").isNotEmpty();
    if (DIRECTORIES.contains("openldap")) {
      assertThat(OpenLdapServer.problem()).as("the benchmark needs slapd").isEmpty();
    }
    TestPostgres.Server prepared = prepare();
    List<Measurement> measurements = new ArrayList<>();
    for (int round = 1; round <= ROUNDS; round++) {
      List<String> order =
          round % 2 == 1 ? List.of("embedded", "openldap") : List.of("openldap", "embedded");
      for (String directory : order) {
        if (!DIRECTORIES.contains(directory)) {
          continue;
        }
        Measurement m = measure(directory, round, prepared);
        System.out.printf(Locale.ROOT, "benchmark: %s%n", m);
        measurements.add(m);
      }
    }
    String report = report(measurements);
    System.out.println(report);
    Path out = Path.of("target", "benchmarks", "ldap.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, report);
  }

  /** The HR people imported and synchronised: a store with one pending add per person. */
  private TestPostgres.Server prepare() throws IOException {
    Path dir = work.resolve("prepared");
    Files.createDirectories(dir.resolve("data"));
    new CsvExampleDataWriter().generate(ENTRIES, dir.resolve("data/hr.csv"), 42, n -> {});
    DataPlaneConfig config = config(dir, "ldap://127.0.0.1:1");
    TestPostgres.Server prepared = TestPostgres.newDatabase(null);
    try (Store store = Store.open(settings(prepared))) {
      RunProfileExecutorImpl executor = executor(store, config, dir);
      for (String profile : List.of("Full Import", "Full Synchronisation")) {
        long start = System.nanoTime();
        RunProfileOutcome outcome = executor.execute(run("HR System", profile), new Progress());
        assertThat(outcome.status()).as(outcome.message()).isEqualTo(StepStatus.Complete);
        System.out.printf(
            Locale.ROOT,
            "benchmark: prepared HR %s in %.1f s: %s%n",
            profile,
            (System.nanoTime() - start) / 1e9,
            outcome.stats());
      }
    }
    return prepared;
  }

  private static StoreSettings settings(TestPostgres.Server database) {
    return new StoreSettings(database.url(), database.user(), database.password(), 8);
  }

  private Measurement measure(String kind, int round, TestPostgres.Server preparedStore)
      throws Exception {
    Path dir = work.resolve("round-" + round + "-" + kind);
    TestPostgres.Server store = TestPostgres.newDatabase(preparedStore.database());
    Files.createDirectories(dir.resolve("data"));
    Files.copy(work.resolve("prepared/data/hr.csv"), dir.resolve("data/hr.csv"));
    try (Directory directory = start(kind, dir)) {
      DataPlaneConfig config = config(dir, directory.url());

      String loadBefore = loadAverage();
      RunProfileOutcome export;
      double exportSeconds;
      try (Store opened = Store.open(settings(store))) {
        // The run alone, as for the modifies below: opening the store is not the export's work.
        RunProfileExecutorImpl executor = executor(opened, config, dir);
        long exportStart = System.nanoTime();
        export = executor.execute(run("Directory", "Export"), new Progress());
        exportSeconds = (System.nanoTime() - exportStart) / 1e9;
      }
      assertThat(export.status()).as(export.message()).isEqualTo(StepStatus.Complete);
      assertThat(entries(directory.url())).as("entries in the directory").isEqualTo(ENTRIES);

      long importStart = System.nanoTime();
      RunProfileOutcome fullImport;
      try (Store opened = Store.open(settings(TestPostgres.newDatabase(null)))) {
        fullImport =
            executor(opened, config, dir).execute(run("Directory", "Full Import"), new Progress());
      }
      double importSeconds = (System.nanoTime() - importStart) / 1e9;
      assertThat(fullImport.status()).as(fullImport.message()).isEqualTo(StepStatus.Complete);

      List<Entry> exported = exportedEntries(directory.url());
      double rawSyncSeconds = RawAdds.synchronous(directory.url(), exported, "raw-sync");
      double rawPipelinedSeconds =
          RawAdds.pipelined(directory.url(), exported, "raw-pipelined", RAW_WINDOW);

      // A delta that changes every title: the HR file's import and synchronisation leave one
      // update per person, sent as modifies (-Djimflow.benchmark.modifies names the directories,
      // default both).
      if (!System.getProperty("jimflow.benchmark.modifies", "embedded,openldap").contains(kind)) {
        return new Measurement(
            kind,
            round,
            export.stats().get("objectsProcessed"),
            exportSeconds,
            fullImport.stats().get("objectsProcessed"),
            importSeconds,
            rawSyncSeconds,
            rawPipelinedSeconds,
            0,
            Double.NaN,
            loadBefore,
            loadAverage());
      }
      retitle(dir.resolve("data/hr.csv"));
      RunProfileOutcome delta;
      double modifySeconds;
      try (Store opened = Store.open(settings(store))) {
        RunProfileExecutorImpl executor = executor(opened, config, dir);
        for (String profile : List.of("Full Import", "Full Synchronisation")) {
          RunProfileOutcome outcome = executor.execute(run("HR System", profile), new Progress());
          assertThat(outcome.status()).as(outcome.message()).isEqualTo(StepStatus.Complete);
        }
        long modifyStart = System.nanoTime();
        delta = executor.execute(run("Directory", "Export"), new Progress());
        modifySeconds = (System.nanoTime() - modifyStart) / 1e9;
      }
      assertThat(delta.status()).as(delta.message()).isEqualTo(StepStatus.Complete);
      assertThat(delta.stats().get("exported")).as("titles changed").isEqualTo((long) ENTRIES);
      String loadAfter = loadAverage();
      return new Measurement(
          kind,
          round,
          export.stats().get("objectsProcessed"),
          exportSeconds,
          fullImport.stats().get("objectsProcessed"),
          importSeconds,
          rawSyncSeconds,
          rawPipelinedSeconds,
          delta.stats().get("objectsProcessed"),
          modifySeconds,
          loadBefore,
          loadAfter);
    } finally {
      delete(dir);
    }
  }

  private static Directory start(String kind, Path dir) throws LDAPException {
    if (kind.equals("embedded")) {
      EmbeddedDirectory embedded =
          EmbeddedDirectory.start(0, dir.resolve("directory.ldif"), PASSWORD);
      return new Directory() {
        @Override
        public String url() {
          return embedded.url();
        }

        @Override
        public void close() {
          embedded.close();
        }
      };
    }
    OpenLdapServer slapd = OpenLdapServer.start(dir.resolve("slapd"));
    slapd.addUnit("people");
    return new Directory() {
      @Override
      public String url() {
        return slapd.url();
      }

      @Override
      public void close() {
        slapd.close();
      }
    };
  }

  /** How many adds the pipelined raw add has in flight at most: the export's window. */
  private static final int RAW_WINDOW = LdapExports.WINDOW;

  /** The entries the export created, as the raw adds send them again (same attributes). */
  private static List<Entry> exportedEntries(String url) throws LDAPException {
    LDAPURL parsed = new LDAPURL(url);
    List<Entry> entries = new ArrayList<>();
    try (LDAPConnection connection =
        new LDAPConnection(parsed.getHost(), parsed.getPort(), OpenLdapServer.BIND_DN, PASSWORD)) {
      SimplePagedResultsControl paging = null;
      do {
        SearchRequest request =
            new SearchRequest(PEOPLE, SearchScope.ONE, "(objectClass=inetOrgPerson)", "*");
        request.addControl(
            new SimplePagedResultsControl(1000, paging == null ? null : paging.getCookie()));
        SearchResult result = connection.search(request);
        for (Entry entry : result.getSearchEntries()) {
          entries.add(new Entry(entry.getDN(), entry.getAttributes()));
        }
        paging = SimplePagedResultsControl.get(result);
      } while (paging != null && paging.moreResultsToReturn());
    }
    return entries;
  }

  /** The HR file with every person's jobTitle changed (" II" appended). */
  private static void retitle(Path hr) throws IOException {
    List<String> lines = Files.readAllLines(hr);
    List<String> header = RawAdds.csvFields(lines.get(0));
    int title = header.indexOf("jobTitle");
    List<String> out = new ArrayList<>();
    out.add(lines.get(0));
    for (String line : lines.subList(1, lines.size())) {
      List<String> fields = RawAdds.csvFields(line);
      String value = fields.get(title);
      fields.set(
          title,
          value.endsWith("\"") ? value.substring(0, value.length() - 1) + " II\"" : value + " II");
      out.add(String.join(",", fields));
    }
    Files.write(hr, out);
  }

  /** How many entries are below ou=people, counted as the connector's bind account. */
  private static long entries(String url) throws LDAPException {
    LDAPURL parsed = new LDAPURL(url);
    try (LDAPConnection connection =
        new LDAPConnection(parsed.getHost(), parsed.getPort(), OpenLdapServer.BIND_DN, PASSWORD)) {
      long count = 0;
      SimplePagedResultsControl paging = null;
      do {
        SearchRequest request =
            new SearchRequest(PEOPLE, SearchScope.ONE, "(objectClass=inetOrgPerson)", "1.1");
        request.addControl(
            new SimplePagedResultsControl(1000, paging == null ? null : paging.getCookie()));
        SearchResult result = connection.search(request);
        count += result.getEntryCount();
        paging = SimplePagedResultsControl.get(result);
      } while (paging != null && paging.moreResultsToReturn());
      return count;
    }
  }

  private static DataPlaneConfig config(Path dir, String ldapUrl) throws IOException {
    Path file = dir.resolve("connected-systems.yaml");
    Files.writeString(
        file,
        """
        # Every title changes in the modify round: no threshold holds it for approval.
        thresholds:
          exportUpdates: {count: 1000000000, share: 1}
        connectedSystems:
          - id: hr
            name: HR System
            connector: csv
            objectTypes:
              - name: person
                anchor: employeeId
                attributes: [employeeId, firstName, lastName, displayName, email, department,
                             jobTitle, location, employeeType, status]
            runProfiles:
              - {id: full-import, name: Full Import, runType: FullImport, file: data/hr.csv, pageSize: 2000}
              - {id: full-sync, name: Full Synchronisation, runType: FullSynchronisation, pageSize: 2000}
          - id: directory
            name: Directory
            connector: ldap
            settings:
              url: %s
              bindDn: %s
              password: ${secret:bench-directory-password}
              baseDn: %s
              scope: one
              objectClasses: [inetOrgPerson, organizationalPerson, person, top]
              dnTemplate: uid={uid},%s
              deltaSource: timestamps
            objectTypes:
              - name: user
                anchor: entryUUID
                attributes: [uid, cn, givenName, sn, mail, title]
            runProfiles:
              - {id: export, name: Export, runType: Export, pageSize: 1000}
              - {id: full-import, name: Full Import, runType: FullImport, pageSize: 1000}
        syncRules:
          inbound:
            - id: hr-people
              system: hr
              objectType: person
              mvoType: person
              project: true
              join: [{cso: employeeId, mvo: employeeId}]
              flows:
                - {from: employeeId, to: employeeId}
                - {from: firstName, to: firstName}
                - {from: lastName, to: lastName}
                - {from: displayName, to: displayName}
                - {from: email, to: email}
                - {from: jobTitle, to: jobTitle}
          outbound:
            - id: directory-users
              system: directory
              objectType: user
              mvoType: person
              flows:
                - {from: employeeId, to: uid}
                - {from: displayName, to: cn}
                - {from: firstName, to: givenName}
                - {from: lastName, to: sn}
                - {from: email, to: mail}
                - {from: jobTitle, to: title}
        """
            .formatted(ldapUrl, OpenLdapServer.BIND_DN, PEOPLE, PEOPLE));
    return new DataPlaneConfigLoader().load(file);
  }

  private static RunProfileExecutorImpl executor(Store store, DataPlaneConfig config, Path dir) {
    return new RunProfileExecutorImpl(
        store,
        config,
        dir,
        Clock.systemUTC(),
        new WorkerSecrets(
            Optional.empty(), Map.of("JIMFLOW_SECRET_BENCH_DIRECTORY_PASSWORD", PASSWORD)),
        name -> null);
  }

  private static RunProfileRun run(String system, String profile) {
    return new RunProfileRun(system, profile, "benchmark", "benchmark", 0, profile, BENCH, 1);
  }

  /** Keeps the last checkpoint, as the heartbeat would. */
  private static final class Progress implements StepProgress {
    private String checkpoint;

    @Override
    public void report(long processed, long total, String checkpoint) {
      if (checkpoint != null) {
        this.checkpoint = checkpoint;
      }
    }

    @Override
    public Optional<String> lastCheckpoint() {
      return Optional.ofNullable(checkpoint);
    }
  }

  private static String report(List<Measurement> measurements) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "LDAP throughput, %,d entries, %d rounds, %s, %d CPUs%n%n",
            ENTRIES,
            ROUNDS,
            Instant.now(),
            Runtime.getRuntime().availableProcessors()));
    out.append(
        "| directory | round | Export adds | adds/s | raw adds/s, 1 connection synchronous |"
            + " raw adds/s, pipelined | Export / raw synchronous | Export modifies (every title)"
            + " | modifies/s | Full Import objects | objects/s |"
            + " load average 1/5/15 min (before → after) |\n");
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Measurement m : measurements) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %,d in %.1f s | %,.0f | %,.0f | %,.0f | %.2f× | %,d in %.1f s | %,.0f"
                  + " | %,d in %.1f s | %,.0f | %s → %s |%n",
              m.directory(),
              m.round(),
              m.exported(),
              m.exportSeconds(),
              m.exportRate(),
              m.rawSyncRate(),
              m.rawPipelinedRate(),
              m.exportRate() / m.rawSyncRate(),
              m.modified(),
              m.modifySeconds(),
              m.modifyRate(),
              m.imported(),
              m.importSeconds(),
              m.importRate(),
              m.loadBefore(),
              m.loadAfter()));
    }
    out.append(
        "\n| directory | median Export adds/s | median raw synchronous adds/s | median raw"
            + " pipelined adds/s | median Export / raw synchronous | median modifies/s | median"
            + " Full Import objects/s |\n");
    out.append("|---|---|---|---|---|---|---|\n");
    for (String directory : DIRECTORIES) {
      List<Measurement> mine =
          measurements.stream().filter(m -> m.directory().equals(directory)).toList();
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %,.0f | %,.0f | %,.0f | %.2f× | %,.0f | %,.0f |%n",
              directory,
              median(mine, Measurement::exportRate),
              median(mine, Measurement::rawSyncRate),
              median(mine, Measurement::rawPipelinedRate),
              median(mine, m -> m.exportRate() / m.rawSyncRate()),
              median(mine, Measurement::modifyRate),
              median(mine, Measurement::importRate)));
    }
    return out.toString();
  }

  private static double median(List<Measurement> values, ToDoubleFunction<Measurement> of) {
    double[] sorted = values.stream().mapToDouble(of).sorted().toArray();
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + "/" + parts[1] + "/" + parts[2];
    } catch (IOException e) {
      return "?";
    }
  }

  private static void delete(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(LdapThroughputBenchmarkIT::deleteFile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteFile(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
