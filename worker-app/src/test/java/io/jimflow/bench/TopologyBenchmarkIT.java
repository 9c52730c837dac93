package io.jimflow.bench;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.e2e.E2eEnvironment;
import io.jimflow.e2e.ManualExecutions;
import io.jimflow.e2e.TopologyEnvironment;
import io.jimflow.e2e.WorkerProcess;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.testing.ScheduleBuilders.ScheduleBuilder;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Scale on both topologies, side by side in one run (a benchmark, not a test: it only runs with
 * {@code -Djimflow.benchmark=true}): {@code executions} executions of a 4-group schedule with
 * trivial steps, all started within about a second, spread over three worker processes, on the
 * official Temporal server on PostgreSQL and on the dev server. Rounds alternate A B B A so neither
 * topology gets the warmer or the quieter machine.
 *
 * <p>Run: {@code ./mvnw -B -ntp verify -pl worker-app -am -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=TopologyBenchmarkIT -Djimflow.benchmark=true};
 * the report lands in {@code worker-app/target/benchmarks/topology.md}. Smaller: {@code
 * -Djimflow.benchmark.executions=100}.
 */
@Tag("topology")
@EnabledIfSystemProperty(named = "jimflow.benchmark", matches = "true")
class TopologyBenchmarkIT {

  private static final int EXECUTIONS = Integer.getInteger("jimflow.benchmark.executions", 500);
  private static final Initiator BENCH = new Initiator(InitiatorType.System, "bench", "benchmark");

  /**
   * How long one round may take; a loaded machine needs more ({@code
   * -Djimflow.benchmark.patience=PT60M}).
   */
  private static final Duration PATIENCE =
      Duration.parse(System.getProperty("jimflow.benchmark.patience", "PT15M"));

  /** One side of the comparison: a server, its clients and its three workers. */
  private record Side(
      String name,
      WorkflowClient client,
      Supplier<List<ProcessHandle>> serverProcesses,
      List<WorkerProcess> workers) {}

  /** What one round measured. */
  private record Round(
      String side,
      int executions,
      double startWindowSeconds,
      double makespanSeconds,
      double p50Seconds,
      double p99Seconds,
      double serverCpuSeconds,
      double workerCpuSeconds,
      String load) {

    double throughput() {
      return executions / makespanSeconds;
    }

    String row() {
      return String.format(
          Locale.ROOT,
          "| %s | %d | %.2f s | %.1f s | %.1f /s | %.2f s | %.2f s | %.1f s | %.1f s | %s |%n",
          side,
          executions,
          startWindowSeconds,
          makespanSeconds,
          throughput(),
          p50Seconds,
          p99Seconds,
          serverCpuSeconds,
          workerCpuSeconds,
          load);
    }
  }

  @Test
  void manyExecutionsAtOnceOnBothTopologies() throws Exception {
    try (TopologyEnvironment topology = TopologyEnvironment.start();
        E2eEnvironment dev = E2eEnvironment.start()) {
      List<WorkerProcess> devWorkers = new ArrayList<>();
      for (int i = 1; i <= TopologyEnvironment.WORKERS; i++) {
        devWorkers.add(dev.startWorker("bench-dev-" + i, Map.of()));
      }
      Side production =
          new Side(
              "Temporal v1.29.1 on PostgreSQL",
              topology.client(),
              () -> serverAndDatabaseProcesses(topology),
              topology.workers());
      Side devServer =
          new Side(
              "dev server (SQLite)",
              dev.client(),
              () -> devServerProcess(dev).map(List::of).orElse(List.of()),
              devWorkers);

      // Warm-up: JIT in the workers, caches in the servers; not measured.
      round(production, "warmup", 50);
      round(devServer, "warmup", 50);

      List<Round> rounds = new ArrayList<>();
      rounds.add(round(devServer, "a1", EXECUTIONS));
      rounds.add(round(production, "b1", EXECUTIONS));
      rounds.add(round(production, "b2", EXECUTIONS));
      rounds.add(round(devServer, "a2", EXECUTIONS));

      String report = report(rounds);
      System.out.println(report);
      Path out = topology.projectHome().resolve("worker-app/target/benchmarks/topology.md");
      Files.createDirectories(out.getParent());
      Files.writeString(out, report);
    }
  }

  private static Round round(Side side, String label, int executions) throws Exception {
    String scheduleId = "bench-" + label + "-" + Long.toHexString(System.nanoTime());
    ScheduleDefinition definition = fourGroups(scheduleId);
    Map<ProcessHandle, Duration> serverCpu = cpu(side.serverProcesses().get());
    Map<ProcessHandle, Duration> workerCpu =
        cpu(side.workers().stream().map(w -> ProcessHandle.of(w.pid()).orElseThrow()).toList());
    String loadBefore = loadAverage();

    ExecutorService starters = Executors.newFixedThreadPool(16);
    Instant firstStart = Instant.now();
    List<Future<?>> starts = new ArrayList<>();
    for (int i = 0; i < executions; i++) {
      String id = scheduleId + "/" + i;
      starts.add(
          starters.submit(() -> ManualExecutions.start(side.client(), id, definition, BENCH)));
    }
    for (Future<?> start : starts) {
      start.get();
    }
    double startWindow = Duration.between(firstStart, Instant.now()).toMillis() / 1000.0;
    starters.shutdown();

    String query = JimflowSearchAttributes.SCHEDULE_ID.getName() + " = '" + scheduleId + "'";
    Instant deadline = Instant.now().plus(PATIENCE);
    while (side.client().countWorkflows(query + " AND ExecutionStatus = 'Running'").getCount() > 0
        || side.client().countWorkflows(query).getCount() < executions) {
      assertThat(Instant.now()).as("round %s ends in time", label).isBefore(deadline);
      Thread.sleep(500);
    }
    double serverCpuSeconds = cpuSince(serverCpu, side.serverProcesses().get());
    double workerCpuSeconds = cpuSince(workerCpu, List.copyOf(workerCpu.keySet()));

    List<WorkflowExecutionMetadata> runs = side.client().listExecutions(query).toList();
    assertThat(runs).hasSize(executions);
    assertThat(runs)
        .extracting(WorkflowExecutionMetadata::getStatus)
        .containsOnly(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
    List<Double> endToEnd = new ArrayList<>();
    Instant earliestStart = Instant.MAX;
    Instant latestClose = Instant.MIN;
    for (WorkflowExecutionMetadata run : runs) {
      Instant started = run.getStartTime();
      Instant closed = run.getCloseTime();
      endToEnd.add(Duration.between(started, closed).toMillis() / 1000.0);
      earliestStart = started.isBefore(earliestStart) ? started : earliestStart;
      latestClose = closed.isAfter(latestClose) ? closed : latestClose;
    }
    Collections.sort(endToEnd);
    return new Round(
        side.name() + " (" + label + ")",
        executions,
        startWindow,
        Duration.between(earliestStart, latestClose).toMillis() / 1000.0,
        percentile(endToEnd, 50),
        percentile(endToEnd, 99),
        serverCpuSeconds,
        workerCpuSeconds,
        loadBefore + " → " + loadAverage());
  }

  /** Four groups of one, one, two and two trivial steps: the Nightly HR Sync's shape. */
  private static ScheduleDefinition fourGroups(String id) {
    ScheduleBuilder schedule = aSchedule(id).named(id);
    int[] groupSizes = {1, 1, 2, 2};
    for (int group = 0; group < groupSizes.length; group++) {
      for (int step = 0; step < groupSizes[group]; step++) {
        schedule.with(
            aStep(group, "step " + group + "." + step)
                .executable("count.sh", "0", "0")
                .timeout(Duration.ofMinutes(10))
                .attemptsOrDefault(null)
                .heartbeatTimeout(null));
      }
    }
    return schedule.definition();
  }

  private static String report(List<Round> rounds) {
    StringBuilder out = new StringBuilder();
    out.append("Machine: ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" CPUs; ")
        .append(EXECUTIONS)
        .append(" executions per round, three worker processes per topology\n\n")
        .append(
            "| topology (round) | executions | started within | makespan | throughput | p50 end-to-end"
                + " | p99 end-to-end | server CPU | worker CPU (3) | load 1 min (before → after) |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|\n");
    rounds.forEach(r -> out.append(r.row()));
    Map<Boolean, List<Round>> byProduction = new HashMap<>();
    for (Round r : rounds) {
      byProduction.computeIfAbsent(r.side().startsWith("Temporal"), k -> new ArrayList<>()).add(r);
    }
    List<Round> production = byProduction.get(true);
    List<Round> dev = byProduction.get(false);
    out.append(
        String.format(
            Locale.ROOT,
            "%nRatios, PostgreSQL topology / dev server (mean of the rounds): throughput %.2f×,"
                + " p50 %.2f×, p99 %.2f×, server CPU %.2f×, worker CPU %.2f×%n",
            mean(production, Round::throughput) / mean(dev, Round::throughput),
            mean(production, Round::p50Seconds) / mean(dev, Round::p50Seconds),
            mean(production, Round::p99Seconds) / mean(dev, Round::p99Seconds),
            mean(production, Round::serverCpuSeconds) / mean(dev, Round::serverCpuSeconds),
            mean(production, Round::workerCpuSeconds) / mean(dev, Round::workerCpuSeconds)));
    return out.toString();
  }

  private static double mean(List<Round> rounds, java.util.function.ToDoubleFunction<Round> f) {
    return rounds.stream().mapToDouble(f).average().orElse(Double.NaN);
  }

  /** The Temporal server and the PostgreSQL backends serving its two databases. */
  private static List<ProcessHandle> serverAndDatabaseProcesses(TopologyEnvironment topology) {
    List<ProcessHandle> processes = new ArrayList<>();
    ProcessHandle.of(topology.serverPid()).ifPresent(processes::add);
    try (Connection connection = topology.store();
        Statement sql = connection.createStatement();
        ResultSet rows =
            sql.executeQuery(
                "select pid from pg_stat_activity where datname in ('"
                    + String.join("', '", topology.temporalDatabaseNames())
                    + "')")) {
      while (rows.next()) {
        ProcessHandle.of(rows.getLong(1)).ifPresent(processes::add);
      }
    } catch (Exception e) {
      throw new IllegalStateException("cannot list the database backends", e);
    }
    return processes;
  }

  /** The dev server is a child process of this JVM; found by its gRPC port. */
  private static java.util.Optional<ProcessHandle> devServerProcess(E2eEnvironment env) {
    String port = Integer.toString(env.server().options().port());
    return ProcessHandle.current()
        .descendants()
        .filter(
            p ->
                p.info()
                    .arguments()
                    .map(args -> java.util.Arrays.asList(args).contains(port))
                    .orElse(false))
        .findFirst();
  }

  private static Map<ProcessHandle, Duration> cpu(List<ProcessHandle> processes) {
    Map<ProcessHandle, Duration> cpu = new HashMap<>();
    for (ProcessHandle process : processes) {
      cpu.put(process, process.info().totalCpuDuration().orElse(Duration.ZERO));
    }
    return cpu;
  }

  /** CPU spent since {@code before} by {@code now}'s processes (ones born since count whole). */
  private static double cpuSince(Map<ProcessHandle, Duration> before, List<ProcessHandle> now) {
    Duration total = Duration.ZERO;
    for (ProcessHandle process : now) {
      Duration spent = process.info().totalCpuDuration().orElse(Duration.ZERO);
      total = total.plus(spent.minus(before.getOrDefault(process, Duration.ZERO)));
    }
    return total.toMillis() / 1000.0;
  }

  private static double percentile(List<Double> sorted, double p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(rank, sorted.size() - 1)));
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (Exception e) {
      return "?";
    }
  }
}
