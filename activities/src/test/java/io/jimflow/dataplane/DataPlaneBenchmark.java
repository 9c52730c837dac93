package io.jimflow.dataplane;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.OperatingSystemMXBean;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.DataPlaneConfigLoader;
import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.secrets.activities.Secrets;
import io.jimflow.store.BenchmarkStore;
import io.jimflow.store.OnRequestBenchmark;
import io.jimflow.store.RawLimitBenchmark;
import io.jimflow.store.RawLimitBenchmark.Spread;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

/**
 * The identity data plane's throughput on a generated HR file, phase by phase, each as objects per
 * second and as a ratio to the raw limit measured in the same run ({@link RawLimitBenchmark}). A
 * measurement, not a test: see docs/benchmarks.md.
 *
 * <p>Per run and store, on a fresh store each: <b>raw</b> (the raw limit's variants, on a store of
 * their own), then on a new store <b>import</b> (HR System: Full Import), <b>sync</b> (HR System:
 * Full Synchronisation), <b>export</b> (Directory and Badge System: Export, CSV files),
 * <b>confirm</b> (Directory and Badge System: their confirming Delta Import of what was exported).
 * Per phase: objects, wall time, objects/s, ratio to the raw limit, the JVM's CPU time and
 * (PostgreSQL) the database server's, and the heap: the highest heap in use before a collection
 * during the phase (as the JVM reports each collection: one instant, all heap pools) and the heap
 * in use at its end.
 *
 * <p>Settings (system properties): {@code jimflow.benchmark.file} the HR CSV ({@code ./jimflow data
 * generate}); {@code .store} {@code postgres} (the default and only one: the tests' PostgreSQL,
 * {@code TestPostgres}, a new schema per run); {@code .runs} (default 3); {@code .phases} (default
 * {@code raw,import,sync,export,confirm}; a phase that a later one needs runs unreported); {@code
 * .raw} {@code import,sync} (default) or {@code import}, which measures the raw limit without the
 * raw sync rows (at 1,000,000 people those take longer than the whole data plane); {@code .jfr} a
 * directory for one flight recording per reported phase; {@code .sync-connections} the store
 * connections a synchronisation uses (default 1), or several counts ({@code 1,2,4}): each run then
 * goes through all of them, each on a fresh store, starting with the next count each run.
 *
 * <p>A phase that fails (out of heap, for instance) ends its run and is reported with how long it
 * ran; the report is written and the benchmark then fails.
 */
@OnRequestBenchmark
class DataPlaneBenchmark {

  private static final List<String> PHASES = List.of("raw", "import", "sync", "export", "confirm");
  private static final List<String> TARGETS = List.of("Directory", "Badge System");
  private static final String PROFILES =
      "src/test/resources/connected-systems-csv.yaml (the shipped systems, Directory as CSV)";

  /** One phase of one run. */
  record Phase(
      String store,
      int run,
      String name,
      long objects,
      double seconds,
      double rawLimit,
      double rawSyncLimit,
      double jvmCpuSeconds,
      double serverCpuSeconds,
      double walBytes,
      long heapPeakBeforeGc,
      long heapAtEnd,
      int collections) {

    double perSecond() {
      return objects / seconds;
    }

    /** PostgreSQL's write-ahead log written per object. */
    double walPerObject() {
      return walBytes / objects;
    }

    double ratio() {
      return rawLimit > 0 ? perSecond() / rawLimit : Double.NaN;
    }

    /** For the synchronisation: against the raw sync rows of the same run. */
    double syncRatio() {
      return rawSyncLimit > 0 && name.equals("sync") ? perSecond() / rawSyncLimit : Double.NaN;
    }
  }

  @Test
  void dataPlanePhases() throws Exception {
    Path csv = Path.of(System.getProperty("jimflow.benchmark.file")).toAbsolutePath();
    int runs = Integer.getInteger("jimflow.benchmark.runs", 3);
    Set<String> selected =
        Arrays.stream(
                System.getProperty("jimflow.benchmark.phases", String.join(",", PHASES)).split(","))
            .map(String::trim)
            .collect(Collectors.toSet());
    for (String phase : selected) {
      if (!PHASES.contains(phase)) {
        throw new IllegalArgumentException(
            "unknown phase '" + phase + "' in -Djimflow.benchmark.phases; known: " + PHASES);
      }
    }
    boolean rawSync =
        switch (System.getProperty("jimflow.benchmark.raw", "import,sync").replace(" ", "")) {
          case "import,sync", "sync,import" -> true;
          case "import" -> false;
          default ->
              throw new IllegalArgumentException(
                  "-Djimflow.benchmark.raw must be 'import,sync' or 'import'");
        };
    String jfr = System.getProperty("jimflow.benchmark.jfr");
    Path jfrDirectory = jfr == null ? null : Files.createDirectories(Path.of(jfr));
    DataPlaneConfig config =
        new DataPlaneConfigLoader().load(RunProfileExecutorImplTest.CSV_SYSTEMS);
    HeapWatch heap = HeapWatch.start();
    List<Phase> phases = new ArrayList<>();
    List<RawLimitBenchmark.Measured> raw = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    List<BenchmarkStore.Kind> kinds =
        Arrays.stream(System.getProperty("jimflow.benchmark.store", "postgres").split(","))
            .map(BenchmarkStore.Kind::parse)
            .toList();
    List<Integer> connectionCounts =
        Arrays.stream(System.getProperty("jimflow.benchmark.sync-connections", "1").split(","))
            .map(String::trim)
            .map(Integer::valueOf)
            .toList();
    for (int run = 1; run <= runs; run++) {
      for (int c = 0; c < connectionCounts.size(); c++) {
        for (BenchmarkStore.Kind kind : kinds) {
          // Each run starts with the next count, so drift of a shared machine spreads over all.
          int connections = connectionCounts.get((c + run - 1) % connectionCounts.size());
          String label =
              connectionCounts.size() > 1
                  ? kind.label() + ", " + connections + " conn"
                  : kind.label();
          Meter meter = new Meter(label, run, heap, jfrDirectory);
          Path work = Files.createTempDirectory("jimflow-benchmark");
          try {
            double limit = 0;
            double syncLimit = 0;
            if (selected.contains("raw")) {
              meter.begin("raw", null);
              RawLimitBenchmark.Result result =
                  RawLimitBenchmark.measure(
                      kind,
                      work,
                      csv,
                      run,
                      rawSync,
                      m -> System.out.println("benchmark: raw " + RawLimitBenchmark.line(m)));
              RawLimitBenchmark.Measured fastest = result.limit();
              limit = fastest.importPerSecond();
              syncLimit = result.syncLimit().syncPerSecond();
              raw.addAll(result.variants());
              // The row of the raw phase is the fastest variant's import; CPU and heap cover all
              // variants, so only the heap is kept.
              Phase all = meter.end(fastest.people(), limit, syncLimit);
              phases.add(
                  new Phase(
                      all.store(),
                      run,
                      "raw",
                      fastest.people(),
                      fastest.importSeconds(),
                      limit,
                      syncLimit,
                      Double.NaN,
                      Double.NaN,
                      Double.NaN,
                      -1,
                      all.heapAtEnd(),
                      0));
            }
            phases.addAll(
                dataPlane(
                    kind,
                    config,
                    csv,
                    work,
                    selected,
                    meter,
                    limit,
                    syncLimit,
                    failures,
                    connections));
          } finally {
            deleteTree(work);
          }
        }
      }
    }
    heap.awaitAll();
    List<Phase> reported = phases.stream().map(heap::complete).toList();
    String report = report(csv, runs, reported, raw, failures);
    System.out.println();
    System.out.println(report);
    Path out = Path.of("target", "benchmarks", "data-plane.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, report);
    System.out.println("benchmark: report written to " + out.toAbsolutePath());
    if (!failures.isEmpty()) {
      throw new AssertionError("phases did not finish: " + failures);
    }
  }

  /** Import, sync, export and confirm on a fresh store, as far as the selected phases need. */
  private static List<Phase> dataPlane(
      BenchmarkStore.Kind kind,
      DataPlaneConfig config,
      Path csv,
      Path work,
      Set<String> selected,
      Meter meter,
      double limit,
      double syncLimit,
      List<String> failures,
      int syncConnections)
      throws Exception {
    int last = -1;
    for (int i = 1; i < PHASES.size(); i++) {
      if (selected.contains(PHASES.get(i))) {
        last = i;
      }
    }
    List<Phase> measured = new ArrayList<>();
    if (last < 0) {
      return measured;
    }
    Path hr = work.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    Files.copy(csv, hr);
    try (BenchmarkStore store = BenchmarkStore.open(kind, work.resolve("store"))) {
      RunProfileExecutorImpl executor =
          new RunProfileExecutorImpl(
              store.store(),
              config,
              work,
              Clock.systemUTC(),
              Secrets.none(),
              System::getenv,
              JimflowMetrics.none(),
              syncConnections);
      int step = 0;
      for (int i = 1; i <= last; i++) {
        String phase = PHASES.get(i);
        boolean reported = selected.contains(phase);
        if (reported) {
          meter.begin(phase, store);
        }
        long objects = 0;
        long started = System.nanoTime();
        try {
          switch (phase) {
            case "import" -> objects += execute(executor, "HR System", "full-import", step++);
            case "sync" -> objects += execute(executor, "HR System", "full-sync", step++);
            case "export" -> {
              for (String target : TARGETS) {
                objects += execute(executor, target, "export", step++);
              }
            }
            case "confirm" -> {
              for (String target : TARGETS) {
                objects += execute(executor, target, "confirming-import", step++);
              }
            }
            default -> throw new IllegalStateException(phase);
          }
        } catch (RuntimeException | OutOfMemoryError e) {
          if (reported) {
            meter.abandon();
          }
          String failure =
              String.format(
                  Locale.ROOT,
                  "%s run %d %s: %s after %.1f s, heap limit %,d MiB; the run's later phases did"
                      + " not run",
                  kind.label(),
                  meter.run,
                  phase,
                  describe(e),
                  (System.nanoTime() - started) / 1e9,
                  Runtime.getRuntime().maxMemory() >> 20);
          System.out.println("benchmark: " + failure);
          failures.add(failure);
          return measured;
        }
        if (reported) {
          measured.add(meter.end(objects, limit, syncLimit));
        }
      }
    }
    return measured;
  }

  /** The failure and, if one of its causes is, that the heap ran out. */
  private static String describe(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof OutOfMemoryError) {
        return "out of memory (" + t.getMessage() + ")";
      }
    }
    return failure.toString();
  }

  /** Runs one run profile and returns how many objects it processed; fails unless Complete. */
  private static long execute(
      RunProfileExecutorImpl executor, String system, String profile, int step) {
    RunProfileRun run =
        new RunProfileRun(
            system,
            profile,
            "benchmark",
            "benchmark",
            step,
            system + " / " + profile,
            new Initiator(InitiatorType.User, "benchmark", "benchmark"),
            1);
    long start = System.nanoTime();
    RunProfileOutcome outcome = executor.execute(run, new RecordingProgress());
    double seconds = (System.nanoTime() - start) / 1e9;
    long objects = outcome.stats().get("objectsProcessed");
    System.out.printf(
        Locale.ROOT,
        "benchmark: %s / %s: %s, %,d objects in %.2f s = %,.0f objects/s; %s%n",
        system,
        profile,
        outcome.status(),
        objects,
        seconds,
        objects / seconds,
        outcome.stats());
    if (!"Complete".equals(outcome.status().name())) {
      throw new IllegalStateException(
          system + " / " + profile + " ended " + outcome.status() + ": " + outcome.message());
    }
    return objects;
  }

  /** Wall time, CPU and heap of one phase at a time, and its flight recording if asked for. */
  private static final class Meter {
    private final String store;
    private final int run;
    private final HeapWatch heap;
    private final Path jfrDirectory;
    private final OperatingSystemMXBean os =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private String phase;
    private BenchmarkStore storeOfPhase;
    private long wallStart;
    private long cpuStart;
    private long uptimeStart;
    private Map<Integer, Long> serverStart;
    private long walStart;
    private Recording recording;

    Meter(String store, int run, HeapWatch heap, Path jfrDirectory) {
      this.store = store;
      this.run = run;
      this.heap = heap;
      this.jfrDirectory = jfrDirectory;
    }

    /**
     * @param of the store whose server CPU to read, or null
     */
    void begin(String name, BenchmarkStore of) throws Exception {
      phase = name;
      storeOfPhase = of;
      serverStart = of == null ? Map.of() : of.serverCpuNanos();
      walStart = of == null ? -1 : of.walPosition();
      if (jfrDirectory != null) {
        recording = new Recording(Configuration.getConfiguration("profile"));
        recording.setName(store + "-" + run + "-" + name);
        recording.start();
      }
      uptimeStart = ManagementFactory.getRuntimeMXBean().getUptime();
      cpuStart = os.getProcessCpuTime();
      wallStart = System.nanoTime();
    }

    /** Ends a phase that did not finish: stops its flight recording, measures nothing. */
    void abandon() {
      if (recording != null) {
        recording.close();
        recording = null;
      }
    }

    Phase end(long objects, double rawLimit, double rawSyncLimit) throws IOException {
      double seconds = (System.nanoTime() - wallStart) / 1e9;
      double cpu = (os.getProcessCpuTime() - cpuStart) / 1e9;
      long uptimeEnd = ManagementFactory.getRuntimeMXBean().getUptime();
      long heapAtEnd = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      double server =
          storeOfPhase == null
              ? Double.NaN
              : BenchmarkStore.cpuNanosBetween(serverStart, storeOfPhase.serverCpuNanos()) / 1e9;
      double wal = walStart < 0 ? Double.NaN : storeOfPhase.walPosition() - walStart;
      if (recording != null) {
        recording.stop();
        Path file =
            jfrDirectory.resolve(
                store.toLowerCase(Locale.ROOT) + "-run" + run + "-" + phase + ".jfr");
        recording.dump(file);
        recording.close();
        recording = null;
        System.out.println("benchmark: flight recording " + file);
      }
      heap.window(store, run, phase, uptimeStart, uptimeEnd);
      Phase measured =
          new Phase(
              store,
              run,
              phase,
              objects,
              seconds,
              rawLimit,
              rawSyncLimit,
              cpu,
              server,
              wal,
              -1,
              heapAtEnd,
              0);
      if (phase.equals("raw")) {
        System.out.printf(
            Locale.ROOT,
            "benchmark: %s run %d raw: every variant in %.2f s, CPU: JVM %.1f s; the raw limit is"
                + " %,.0f people/s%n",
            store,
            run,
            seconds,
            cpu,
            rawLimit);
        return measured;
      }
      System.out.printf(
          Locale.ROOT,
          "benchmark: %s run %d %s: %,d objects in %.2f s = %,.0f objects/s%s; CPU: JVM %.1f s%s;"
              + " heap at end %,d MiB%n",
          store,
          run,
          phase,
          objects,
          seconds,
          measured.perSecond(),
          rawLimit > 0
              ? String.format(Locale.ROOT, " = %.2f× the raw limit", measured.ratio())
                  + (Double.isNaN(measured.syncRatio())
                      ? ""
                      : String.format(
                          Locale.ROOT, ", %.2f× the raw sync rows", measured.syncRatio()))
              : "",
          cpu,
          storeOfPhase != null && storeOfPhase.kind() == BenchmarkStore.Kind.POSTGRES
              ? String.format(
                  Locale.ROOT,
                  ", PostgreSQL %.1f s; WAL %,.0f bytes/object",
                  server,
                  measured.walPerObject())
              : "",
          heapAtEnd >> 20);
      return measured;
    }
  }

  /**
   * The heap in use before each garbage collection, as the JVM reports it with the collection (the
   * sum of the heap pools at that one instant), so a phase's peak is the highest such figure within
   * it: not the sum of each pool's own peak, which are reached at different moments.
   */
  private static final class HeapWatch {
    /** A collection: when it started (JVM uptime, ms) and the heap in use just before it. */
    private record Collection(long startUptime, long usedBefore) {}

    private record Window(String store, int run, String phase, long from, long to) {}

    private final List<Collection> collections = new CopyOnWriteArrayList<>();
    private final List<Window> windows = new ArrayList<>();
    private final Set<String> heapPools;

    private HeapWatch(Set<String> heapPools) {
      this.heapPools = heapPools;
    }

    static HeapWatch start() {
      HeapWatch watch =
          new HeapWatch(
              ManagementFactory.getMemoryPoolMXBeans().stream()
                  .filter(p -> p.getType() == MemoryType.HEAP)
                  .map(MemoryPoolMXBean::getName)
                  .collect(Collectors.toSet()));
      for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
        ((NotificationEmitter) collector)
            .addNotificationListener(
                (notification, handback) -> {
                  if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                      notification.getType())) {
                    watch.collected(
                        GarbageCollectionNotificationInfo.from(
                            (CompositeData) notification.getUserData()));
                  }
                },
                null,
                null);
      }
      return watch;
    }

    private void collected(GarbageCollectionNotificationInfo info) {
      long used = 0;
      for (Map.Entry<String, MemoryUsage> pool :
          info.getGcInfo().getMemoryUsageBeforeGc().entrySet()) {
        if (heapPools.contains(pool.getKey())) {
          used += pool.getValue().getUsed();
        }
      }
      collections.add(new Collection(info.getGcInfo().getStartTime(), used));
    }

    void window(String store, int run, String phase, long from, long to) {
      windows.add(new Window(store, run, phase, from, to));
    }

    /**
     * Waits until the JVM has reported every collection so far: notifications arrive in order, so
     * once that of a collection started now is in, all earlier ones are.
     */
    void awaitAll() throws InterruptedException {
      long now = ManagementFactory.getRuntimeMXBean().getUptime();
      System.gc();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (collections.stream().noneMatch(c -> c.startUptime() >= now)
          && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    }

    Phase complete(Phase phase) {
      Window window =
          windows.stream()
              .filter(
                  w ->
                      w.store().equals(phase.store())
                          && w.run() == phase.run()
                          && w.phase().equals(phase.name()))
              .findFirst()
              .orElseThrow();
      List<Collection> within =
          collections.stream()
              .filter(c -> c.startUptime() >= window.from() && c.startUptime() <= window.to())
              .toList();
      long peak = within.stream().mapToLong(Collection::usedBefore).max().orElse(-1);
      return new Phase(
          phase.store(),
          phase.run(),
          phase.name(),
          phase.objects(),
          phase.seconds(),
          phase.rawLimit(),
          phase.rawSyncLimit(),
          phase.jvmCpuSeconds(),
          phase.serverCpuSeconds(),
          phase.walBytes(),
          peak,
          phase.heapAtEnd(),
          within.size());
    }
  }

  private static String report(
      Path csv,
      int runs,
      List<Phase> phases,
      List<RawLimitBenchmark.Measured> raw,
      List<String> failures) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "# Data plane benchmark%n%nFile %s, %d run(s), heap limit %,d MiB, %d processors,"
                + " systems of %s.%n%n",
            csv,
            runs,
            Runtime.getRuntime().maxMemory() >> 20,
            Runtime.getRuntime().availableProcessors(),
            PROFILES));
    out.append("## Every run\n\n")
        .append(
            "| store | run | phase | objects | seconds | objects/s | × raw limit | CPU JVM s |"
                + " CPU PostgreSQL s | PostgreSQL WAL bytes/object | heap peak before GC MiB (GCs) |"
                + " heap at end MiB |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Phase p : phases) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s | %,d | %.2f | %,.0f | %s | %s | %s | %s | %s | %,d |%n",
              p.store(),
              p.run(),
              p.name(),
              p.objects(),
              p.seconds(),
              p.perSecond(),
              Double.isNaN(p.ratio()) ? "–" : String.format(Locale.ROOT, "%.2f", p.ratio()),
              seconds(p.jvmCpuSeconds()),
              seconds(p.serverCpuSeconds()),
              Double.isNaN(p.walBytes())
                  ? "–"
                  : String.format(Locale.ROOT, "%,.0f", p.walPerObject()),
              p.heapPeakBeforeGc() < 0
                  ? "no GC"
                  : String.format(
                      Locale.ROOT, "%,d (%d)", p.heapPeakBeforeGc() >> 20, p.collections()),
              p.heapAtEnd() >> 20));
    }
    if (!failures.isEmpty()) {
      out.append("\n## Phases that did not finish\n\n");
      failures.forEach(f -> out.append("- ").append(f).append('\n'));
    }
    out.append("\n## Median (min–max) over the runs\n\n")
        .append(
            "| store | phase | objects | objects/s | × raw limit | × raw sync rows | seconds |"
                + " CPU JVM s | CPU PostgreSQL s | PostgreSQL WAL bytes/object |"
                + " heap peak before GC, highest, MiB |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    Map<String, List<Phase>> groups = new LinkedHashMap<>();
    phases.forEach(
        p ->
            groups.computeIfAbsent(p.store() + "\u0000" + p.name(), k -> new ArrayList<>()).add(p));
    for (List<Phase> group : groups.values()) {
      Phase first = group.get(0);
      long peak = group.stream().mapToLong(Phase::heapPeakBeforeGc).max().orElse(-1);
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %,d | %s | %s | %s | %s | %s | %s | %s | %s |%n",
              first.store(),
              first.name(),
              first.objects(),
              spread(group, Phase::perSecond).format("%,.0f"),
              first.rawLimit() > 0 ? spread(group, Phase::ratio).format("%.2f") : "–",
              Double.isNaN(first.syncRatio())
                  ? "–"
                  : spread(group, Phase::syncRatio).format("%.2f"),
              spread(group, Phase::seconds).format("%.2f"),
              Double.isNaN(first.jvmCpuSeconds())
                  ? "–"
                  : spread(group, Phase::jvmCpuSeconds).format("%.1f"),
              Double.isNaN(first.serverCpuSeconds())
                  ? "–"
                  : spread(group, Phase::serverCpuSeconds).format("%.1f"),
              Double.isNaN(first.walBytes())
                  ? "–"
                  : spread(group, Phase::walPerObject).format("%,.0f"),
              peak < 0 ? "no GC" : String.format(Locale.ROOT, "%,d", peak >> 20)));
    }
    if (!raw.isEmpty()) {
      out.append("\n## Raw limit variants, people/s, median (min–max)\n\n")
          .append("| store | variant | import rows | rows/person | sync rows | rows/person |\n")
          .append("|---|---|---|---|---|---|\n");
      Map<RawLimitBenchmark.Variant, List<RawLimitBenchmark.Measured>> byVariant =
          new LinkedHashMap<>();
      raw.forEach(m -> byVariant.computeIfAbsent(m.variant(), v -> new ArrayList<>()).add(m));
      byVariant.forEach(
          (variant, measured) -> {
            RawLimitBenchmark.Measured m = measured.get(0);
            out.append(
                String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %.2f | %s | %s |%n",
                    variant.kind().label(),
                    variant.label(),
                    Spread.of(measured.stream().map(x -> x.importPerSecond()).toList()),
                    (double) m.importRows() / m.people(),
                    !m.syncMeasured()
                        ? "not measured"
                        : Spread.of(measured.stream().map(x -> x.syncPerSecond()).toList()),
                    !m.syncMeasured()
                        ? "–"
                        : String.format(Locale.ROOT, "%.2f", (double) m.syncRows() / m.synced())));
          });
    }
    return out.toString();
  }

  private static String seconds(double value) {
    return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%.1f", value);
  }

  private static Spread spread(List<Phase> phases, ToDoubleFunction<Phase> figure) {
    return Spread.of(phases.stream().map(p -> figure.applyAsDouble(p)).toList());
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (var files = Files.walk(root)) {
      for (Path file : files.sorted((a, b) -> b.compareTo(a)).toList()) {
        Files.delete(file);
      }
    }
  }
}
