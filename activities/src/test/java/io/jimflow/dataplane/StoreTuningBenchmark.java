package io.jimflow.dataplane;

import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.DataPlaneConfigLoader;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.store.BenchmarkStore;
import io.jimflow.store.HotQueries;
import io.jimflow.store.OnRequestBenchmark;
import io.jimflow.store.Store;
import io.jimflow.store.StoreSettings;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Store settings side by side: a Full Import and a Full Synchronisation of the HR file on a fresh
 * store per variant, the variants in the order A, B, … then reversed (so none always runs first on
 * a cold JVM), and, if asked, the plans of the hot queries ({@link HotQueries}) on the last store.
 * A measurement, not a test: see docs/benchmarks.md, "Embedded H2: tuning and what bounds it".
 *
 * <p>Settings (system properties): {@code jimflow.benchmark.file} the HR CSV; {@code .store} {@code
 * h2} (default) or {@code postgres}; {@code .variants} variants separated by {@code |}, each a list
 * of items separated by {@code &}: {@code KEY=VALUE} an H2 URL setting (replacing the embedded
 * default's, e.g. {@code CACHE_SIZE=262144}), {@code pageSize=N} the HR run profiles' page size,
 * {@code sql:STATEMENT} a statement run after the migration (e.g. {@code sql:drop index x}); {@code
 * base} or an empty variant for the defaults; {@code .runs} rounds (default 2: forward, then
 * reversed); {@code .explain=true} the plans after the last variant.
 */
@OnRequestBenchmark
class StoreTuningBenchmark {

  @Test
  void variantsSideBySide() throws Exception {
    Path csv = Path.of(System.getProperty("jimflow.benchmark.file")).toAbsolutePath();
    BenchmarkStore.Kind kind =
        BenchmarkStore.Kind.parse(System.getProperty("jimflow.benchmark.store", "h2"));
    List<String> variants =
        Arrays.stream(System.getProperty("jimflow.benchmark.variants", "base").split("\\|"))
            .map(String::trim)
            .toList();
    int rounds = Integer.getInteger("jimflow.benchmark.runs", 2);
    boolean explain = Boolean.getBoolean("jimflow.benchmark.explain");
    List<String> report = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      List<String> order = new ArrayList<>(variants);
      if (round % 2 == 0) {
        Collections.reverse(order);
      }
      for (int i = 0; i < order.size(); i++) {
        boolean last = round == rounds && i == order.size() - 1;
        report.add(run(kind, csv, order.get(i), round, explain && last));
      }
    }
    System.out.println();
    report.forEach(System.out::println);
  }

  private static String run(
      BenchmarkStore.Kind kind, Path csv, String variant, int round, boolean explain)
      throws Exception {
    Path work = Files.createTempDirectory("jimflow-tuning");
    try {
      Path hr = work.resolve("data/hr.csv");
      Files.createDirectories(hr.getParent());
      Files.copy(csv, hr);
      String url = StoreSettings.embedded(work.resolve("store")).url();
      String pageSize = null;
      List<String> statements = new ArrayList<>();
      for (String item : variant.split("&")) {
        item = item.trim();
        if (item.isEmpty() || item.equals("base")) {
          continue;
        }
        if (item.startsWith("sql:")) {
          statements.add(item.substring(4));
        } else if (item.startsWith("pageSize=")) {
          pageSize = item.substring("pageSize=".length());
        } else {
          url = withSetting(url, item);
        }
      }
      Path systems = RunProfileExecutorImplTest.CSV_SYSTEMS;
      if (pageSize != null) {
        systems = work.resolve("systems.yaml");
        Files.writeString(
            systems,
            Files.readString(RunProfileExecutorImplTest.CSV_SYSTEMS)
                .replace("data/hr.csv, pageSize: 2000", "data/hr.csv, pageSize: " + pageSize)
                .replace(
                    "runType: FullSynchronisation, pageSize: 2000",
                    "runType: FullSynchronisation, pageSize: " + pageSize));
      }
      DataPlaneConfig config = new DataPlaneConfigLoader().load(systems);
      BenchmarkStore postgres = null;
      Store store;
      if (kind == BenchmarkStore.Kind.H2) {
        store = Store.open(new StoreSettings(url, "sa", "", StoreSettings.DEFAULT_POOL_SIZE));
      } else {
        postgres = BenchmarkStore.open(kind, work.resolve("store"));
        store = postgres.store();
      }
      try {
        for (String statement : statements) {
          HotQueries.execute(store, statement);
        }
        RunProfileExecutorImpl executor =
            new RunProfileExecutorImpl(store, config, work, Clock.systemUTC());
        double[] imported = timed(executor, "full-import", 0);
        double[] synced = timed(executor, "full-sync", 1);
        String line =
            String.format(
                Locale.ROOT,
                "tuning: %s round %d [%s]: import %,.0f objects/s (%.2f s, CPU %.1f s),"
                    + " sync %,.0f objects/s (%.2f s, CPU %.1f s); store %,d MiB; load %s",
                kind.label(),
                round,
                variant,
                imported[0] / imported[1],
                imported[1],
                imported[2],
                synced[0] / synced[1],
                synced[1],
                synced[2],
                kind == BenchmarkStore.Kind.H2 ? size(work.resolve("store")) >> 20 : -1,
                Files.readString(Path.of("/proc/loadavg")).trim());
        System.out.println(line);
        if (explain) {
          String plans = HotQueries.explain(store);
          Path out =
              Path.of(
                  "target",
                  "benchmarks",
                  "explain-" + kind.label().toLowerCase(Locale.ROOT) + ".md");
          Files.createDirectories(out.getParent());
          Files.writeString(out, plans);
          System.out.println(plans);
          System.out.println("tuning: plans written to " + out.toAbsolutePath());
        }
        return line;
      } finally {
        if (postgres != null) {
          postgres.close();
        } else {
          store.close();
        }
      }
    } finally {
      try (Stream<Path> files = Files.walk(work)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(file);
        }
      }
    }
  }

  /** The URL with one setting replaced or added. */
  static String withSetting(String url, String setting) {
    String key = setting.substring(0, setting.indexOf('=') + 1);
    List<String> parts = new ArrayList<>(Arrays.asList(url.split(";")));
    boolean replaced = false;
    for (int i = 1; i < parts.size(); i++) {
      if (parts.get(i).toUpperCase(Locale.ROOT).startsWith(key.toUpperCase(Locale.ROOT))) {
        parts.set(i, setting);
        replaced = true;
      }
    }
    if (!replaced) {
      parts.add(setting);
    }
    return String.join(";", parts);
  }

  /** Objects, seconds and JVM CPU seconds of one HR run profile. */
  private static double[] timed(RunProfileExecutorImpl executor, String profile, int step) {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu = os.getProcessCpuTime();
    long start = System.nanoTime();
    RunProfileOutcome outcome =
        executor.execute(
            new RunProfileRun(
                "HR System",
                profile,
                "tuning",
                "tuning",
                step,
                "HR System / " + profile,
                new Initiator(InitiatorType.User, "benchmark", "benchmark"),
                1),
            new RecordingProgress());
    double seconds = (System.nanoTime() - start) / 1e9;
    if (!"Complete".equals(outcome.status().name())) {
      throw new IllegalStateException(
          profile + " ended " + outcome.status() + ": " + outcome.message());
    }
    return new double[] {
      outcome.stats().get("objectsProcessed"), seconds, (os.getProcessCpuTime() - cpu) / 1e9
    };
  }

  private static long size(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }
}
