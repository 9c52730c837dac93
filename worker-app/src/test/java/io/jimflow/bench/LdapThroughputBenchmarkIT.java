package io.jimflow.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPURL;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import io.jimflow.dataplane.RunProfileExecutorImpl;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.DataPlaneConfigLoader;
import io.jimflow.e2e.OpenLdapServer;
import io.jimflow.exampledata.CsvExampleDataWriter;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.schedule.steps.StepProgress;
import io.jimflow.secrets.WorkerSecrets;
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
 * Smaller: {@code -Djimflow.benchmark.entries=10000 -Djimflow.benchmark.rounds=1}.
 *
 * <p>Once, the HR people are imported and synchronised into a store (a database of the tests'
 * PostgreSQL, {@code TestPostgres}), leaving one pending add per person for the directory; each
 * round copies that store (a database made from it as template) and runs the Export against a
 * fresh, empty directory (one store commit and one LDAP add per entry, as every export records its
 * outcome before the next), then the Full Import of the directory (paged search) into a fresh
 * store. Rounds alternate the order of the two directories.
 */
@EnabledIfSystemProperty(named = "jimflow.benchmark", matches = "true")
class LdapThroughputBenchmarkIT {

  private static final int ENTRIES = Integer.getInteger("jimflow.benchmark.entries", 100_000);
  private static final int ROUNDS = Integer.getInteger("jimflow.benchmark.rounds", 3);
  private static final String PASSWORD = OpenLdapServer.BIND_PASSWORD;
  private static final String PEOPLE = "ou=people,dc=example,dc=org";
  private static final Initiator BENCH = new Initiator(InitiatorType.System, "bench", "benchmark");

  /** One directory's figures of one round. */
  private record Measurement(
      String directory,
      int round,
      long exported,
      double exportSeconds,
      long imported,
      double importSeconds,
      String loadBefore,
      String loadAfter) {
    double exportRate() {
      return exported / exportSeconds;
    }

    double importRate() {
      return imported / importSeconds;
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
    assertThat(OpenLdapServer.problem()).as("the benchmark needs slapd").isEmpty();
    TestPostgres.Server prepared = prepare();
    List<Measurement> measurements = new ArrayList<>();
    for (int round = 1; round <= ROUNDS; round++) {
      List<String> order =
          round % 2 == 1 ? List.of("embedded", "openldap") : List.of("openldap", "embedded");
      for (String directory : order) {
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
      long exportStart = System.nanoTime();
      RunProfileOutcome export;
      try (Store opened = Store.open(settings(store))) {
        export = executor(opened, config, dir).execute(run("Directory", "Export"), new Progress());
      }
      double exportSeconds = (System.nanoTime() - exportStart) / 1e9;
      assertThat(export.status()).as(export.message()).isEqualTo(StepStatus.Complete);
      assertThat(entries(directory.url())).as("entries in the directory").isEqualTo(ENTRIES);

      long importStart = System.nanoTime();
      RunProfileOutcome fullImport;
      try (Store opened = Store.open(settings(TestPostgres.newDatabase(null)))) {
        fullImport =
            executor(opened, config, dir).execute(run("Directory", "Full Import"), new Progress());
      }
      double importSeconds = (System.nanoTime() - importStart) / 1e9;
      String loadAfter = loadAverage();
      assertThat(fullImport.status()).as(fullImport.message()).isEqualTo(StepStatus.Complete);
      return new Measurement(
          kind,
          round,
          export.stats().get("objectsProcessed"),
          exportSeconds,
          fullImport.stats().get("objectsProcessed"),
          importSeconds,
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
        "| directory | round | Export adds | adds/s | Full Import objects | objects/s |"
            + " load average 1/5/15 min (before → after) |\n");
    out.append("|---|---|---|---|---|---|---|\n");
    for (Measurement m : measurements) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %,d in %.1f s | %,.0f | %,d in %.1f s | %,.0f | %s → %s |%n",
              m.directory(),
              m.round(),
              m.exported(),
              m.exportSeconds(),
              m.exportRate(),
              m.imported(),
              m.importSeconds(),
              m.importRate(),
              m.loadBefore(),
              m.loadAfter()));
    }
    out.append("\n| directory | median Export adds/s | median Full Import objects/s |\n");
    out.append("|---|---|---|\n");
    for (String directory : List.of("embedded", "openldap")) {
      List<Measurement> mine =
          measurements.stream().filter(m -> m.directory().equals(directory)).toList();
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %,.0f | %,.0f |%n",
              directory,
              median(mine, Measurement::exportRate),
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
