package io.jimflow.dataplane;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.DataPlaneConfigLoader;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.store.Store;
import io.jimflow.store.StoreSettings;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Full import and full synchronisation of a generated HR file, timed; a measurement, not a test.
 * Runs only when asked, see docs/benchmarks.md: {@code -Djimflow.benchmark.file=/tmp/bench/hr.csv
 * [-Djimflow.benchmark.store=jdbc:...]}.
 */
class DataPlaneBenchmark {

  @Test
  void fullImportAndFullSynchronisation() throws Exception {
    String file = System.getProperty("jimflow.benchmark.file");
    assumeTrue(
        file != null, "set -Djimflow.benchmark.file to a generated HR CSV to run the benchmark");
    Path work = Files.createTempDirectory("jimflow-benchmark");
    Path hr = work.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    Files.copy(Path.of(file), hr);
    String url = System.getProperty("jimflow.benchmark.store");
    StoreSettings settings =
        url == null
            ? StoreSettings.embedded(work.resolve("data"))
            : new StoreSettings(
                url,
                System.getProperty("jimflow.benchmark.user"),
                System.getProperty("jimflow.benchmark.password"),
                4);
    DataPlaneConfig config =
        new DataPlaneConfigLoader().load(RunProfileExecutorImplTest.CSV_SYSTEMS);
    try (Store store = Store.open(settings)) {
      RunProfileExecutorImpl executor =
          new RunProfileExecutorImpl(store, config, work, Clock.systemUTC());
      measure(executor, "Full Import", 0);
      measure(executor, "Full Synchronisation", 1);
    }
    System.out.printf(
        Locale.ROOT,
        "benchmark: peak heap %,d MiB (store %s)%n",
        peakHeap() / (1024 * 1024),
        settings.url());
  }

  private static void measure(RunProfileExecutorImpl executor, String profile, int step) {
    RunProfileRun run =
        new RunProfileRun(
            "HR System",
            profile,
            "benchmark",
            "benchmark",
            step,
            profile,
            new Initiator(InitiatorType.User, "benchmark", "benchmark"),
            1);
    long start = System.nanoTime();
    RunProfileOutcome outcome = executor.execute(run, new RecordingProgress());
    double seconds = (System.nanoTime() - start) / 1e9;
    long objects = outcome.stats().get("objectsProcessed");
    System.out.printf(
        Locale.ROOT,
        "benchmark: %s %s: %,d objects in %.1f s = %,.0f objects/s; %s%n",
        profile,
        outcome.status(),
        objects,
        seconds,
        objects / seconds,
        outcome.stats());
  }

  private static long peakHeap() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }
}
