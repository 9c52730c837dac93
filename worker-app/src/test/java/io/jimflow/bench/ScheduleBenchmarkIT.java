package io.jimflow.bench;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.common.TaskQueues;
import io.jimflow.e2e.E2eEnvironment;
import io.jimflow.e2e.ManualExecutions;
import io.jimflow.e2e.TemporalDevServerExtension;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.RecordingExecutionRecords;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionWorkflowImpl;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.deploy.ScheduleMapper;
import io.jimflow.worker.WorkerTuning;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import io.temporal.client.schedules.ScheduleIntervalSpec;
import io.temporal.client.schedules.ScheduleOptions;
import io.temporal.client.schedules.ScheduleSpec;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Orchestration benchmark on the real dev server (not a timed test: it only runs with {@code
 * -Djimflow.benchmark=true}). Steps do nothing, so every figure is orchestration; the worker is
 * in-process with the options of {@link WorkerTuning}, the server has the dev server's settings.
 *
 * <ul>
 *   <li>advancement latency: end of a group's last step → start of the next group's first step,
 *       over a schedule of {@code advances + 1} one-step groups, for ScheduleExecutionWorkflow and
 *       for a bare workflow running the same steps; with where the time goes (from the history's
 *       event times) and the CPU each side burns per advance;
 *   <li>overhead: the same steps (the Nightly HR Sync's shape, repeated) run by the bare workflow
 *       and by ScheduleExecutionWorkflow, one after the other in alternating order, as medians and
 *       ratios;
 *   <li>trigger latency: a Temporal Schedule's nominal time → the execution's first step start.
 * </ul>
 *
 * <p>Run: {@code ./mvnw -B install -DskipTests && ./mvnw -B verify -pl worker-app -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ScheduleBenchmarkIT -Djimflow.benchmark=true};
 * the report lands in {@code worker-app/target/benchmarks/schedule-execution.md}. Smaller runs for
 * quick iterations: {@code -Djimflow.benchmark.advances=100 -Djimflow.benchmark.rounds=2
 * -Djimflow.benchmark.triggers=5}.
 */
@ExtendWith(TemporalDevServerExtension.class)
@EnabledIfSystemProperty(named = "jimflow.benchmark", matches = "true")
class ScheduleBenchmarkIT {

  private static final Initiator BENCH = new Initiator(InitiatorType.System, "bench", "benchmark");
  private static final int ADVANCES = Integer.getInteger("jimflow.benchmark.advances", 400);
  private static final int OVERHEAD_ROUNDS = Integer.getInteger("jimflow.benchmark.rounds", 8);
  private static final int TRIGGERS = Integer.getInteger("jimflow.benchmark.triggers", 20);

  @Test
  void orchestrationFigures(E2eEnvironment env) throws Exception {
    String namespace = env.newNamespace("bench");
    WorkflowClient client = env.client(namespace);
    TimedStepActivities steps = new TimedStepActivities();
    WorkerFactory factory = WorkerFactory.newInstance(client);
    Worker worker =
        factory.newWorker(
            TaskQueues.SCHEDULES, WorkerTuning.apply(WorkerOptions.newBuilder()).build());
    worker.registerWorkflowImplementationTypes(
        ScheduleExecutionWorkflowImpl.class, BareSequenceWorkflowImpl.class);
    worker.registerActivitiesImplementations(steps, new RecordingExecutionRecords());
    factory.start();
    Optional<ProcessHandle> server = serverProcess(env);
    try {
      StringBuilder report = new StringBuilder();
      report.append("Machine: ").append(machine()).append("  \n");
      report
          .append("Dev server flags: `")
          .append(String.join(" ", env.server().options().extraArgs()));
      report.append("`  \nLoad average at start: ").append(loadAverage()).append("\n\n");

      // Warm-up: JIT and server caches, not measured.
      runScheduleExecutionId(client, sequence("warmup", 100));
      runBareId(client, sequence("warmup", 100));

      report
          .append("| advancement | advances | p50 | p99 | max | server → worker (p50) |")
          .append(" workflow task (p50) | CPU per advance: server / test JVM |\n")
          .append("|---|---|---|---|---|---|---|---|\n");
      // Two halves each, in the order A B B A, so neither side gets the warmer or quieter machine.
      int half = ADVANCES / 2;
      Advancement jimflow = advancement(client, steps, server, true, half);
      Advancement bare = advancement(client, steps, server, false, half);
      bare = bare.plus(advancement(client, steps, server, false, ADVANCES - half));
      jimflow = jimflow.plus(advancement(client, steps, server, true, ADVANCES - half));
      report.append(jimflow.row("ScheduleExecutionWorkflow")).append(bare.row("bare workflow"));

      List<Double> ratios = new ArrayList<>();
      List<Double> bareMs = new ArrayList<>();
      List<Double> jimflowMs = new ArrayList<>();
      ScheduleDefinition shape = hrSyncShape(25);
      int groups = shape.steps().stream().mapToInt(StepDefinition::index).max().orElse(0) + 1;
      Timed jimflowRun = null;
      Timed bareRun = null;
      for (int round = 0; round < OVERHEAD_ROUNDS; round++) {
        // Alternating who goes first keeps a warming or cooling machine from favouring one side.
        Timed jimflowFirst =
            round % 2 == 0 ? timed(() -> runScheduleExecutionId(client, shape)) : null;
        bareRun = timed(() -> runBareId(client, shape));
        jimflowRun =
            round % 2 == 0 ? jimflowFirst : timed(() -> runScheduleExecutionId(client, shape));
        bareMs.add(bareRun.millis());
        jimflowMs.add(jimflowRun.millis());
        ratios.add(jimflowRun.millis() / bareRun.millis());
      }
      report.append(
          String.format(
              Locale.ROOT,
              "%n| overhead: %d steps in %d groups, %d rounds in alternating order | median |"
                  + " min | max |%n|---|---|---|---|%n"
                  + "| bare workflow | %.0f ms | %.0f ms | %.0f ms |%n"
                  + "| ScheduleExecutionWorkflow | %.0f ms | %.0f ms | %.0f ms |%n"
                  + "| ratio per round | %.2f× | %.2f× | %.2f× |%n"
                  + "| ratio of the medians | %.2f× | | |%n"
                  + "| difference of the medians per group | %.1f ms | | |%n"
                  + "%n| history events per execution (last round) | all | workflow tasks |"
                  + " activities | search attribute upserts | timers |%n|---|---|---|---|---|---|%n"
                  + "%s%s",
              shape.steps().size(),
              groups,
              OVERHEAD_ROUNDS,
              percentile(bareMs, 50),
              Collections.min(bareMs),
              Collections.max(bareMs),
              percentile(jimflowMs, 50),
              Collections.min(jimflowMs),
              Collections.max(jimflowMs),
              percentile(ratios, 50),
              Collections.min(ratios),
              Collections.max(ratios),
              percentile(jimflowMs, 50) / percentile(bareMs, 50),
              (percentile(jimflowMs, 50) - percentile(bareMs, 50)) / groups,
              eventCounts("bare workflow", client, bareRun.id()),
              eventCounts("ScheduleExecutionWorkflow", client, jimflowRun.id())));

      List<Double> triggers = triggerLatencies(namespace, env, steps);
      report.append(
          String.format(
              Locale.ROOT,
              "%n| trigger latency (%d scheduled starts) | p50 %.0f ms | p99 %.0f ms | max %.0f ms"
                  + " |%n",
              triggers.size(),
              percentile(triggers, 50),
              percentile(triggers, 99),
              Collections.max(triggers)));
      report.append("\nLoad average at end: ").append(loadAverage()).append('\n');

      Path out = env.projectHome().resolve("worker-app/target/benchmarks/schedule-execution.md");
      Files.createDirectories(out.getParent());
      Files.writeString(out, report.toString());
      System.out.println("\n" + report);
      assertThat(jimflow.latencies()).hasSize(ADVANCES);
    } finally {
      factory.shutdown();
    }
  }

  /** One advancement run: latencies (ms), their split from the history, CPU per advance (ms). */
  private record Advancement(
      List<Double> latencies,
      List<Double> dispatch,
      List<Double> decision,
      Optional<Double> serverCpuMillis,
      double testJvmCpuMillis) {

    Advancement plus(Advancement other) {
      return new Advancement(
          concat(latencies, other.latencies),
          concat(dispatch, other.dispatch),
          concat(decision, other.decision),
          serverCpuMillis.flatMap(a -> other.serverCpuMillis.map(b -> a + b)),
          testJvmCpuMillis + other.testJvmCpuMillis);
    }

    private static List<Double> concat(List<Double> a, List<Double> b) {
      List<Double> all = new ArrayList<>(a);
      all.addAll(b);
      return all;
    }

    String row(String name) {
      return String.format(
          Locale.ROOT,
          "| %s | %d | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %s / %.1f ms |%n",
          name,
          latencies.size(),
          percentile(latencies, 50),
          percentile(latencies, 99),
          Collections.max(latencies),
          percentile(dispatch, 50),
          percentile(decision, 50),
          serverCpuMillis
              .map(ms -> String.format(Locale.ROOT, "%.1f ms", ms / latencies.size()))
              .orElse("n/a"),
          testJvmCpuMillis / latencies.size());
    }
  }

  private Advancement advancement(
      WorkflowClient client,
      TimedStepActivities steps,
      Optional<ProcessHandle> server,
      boolean scheduleExecution,
      int advances) {
    ScheduleDefinition definition = sequence("advance", advances + 1);
    Optional<Duration> serverCpuBefore = server.flatMap(p -> p.info().totalCpuDuration());
    long jvmCpuBefore = processCpuNanos();
    String id =
        scheduleExecution
            ? runScheduleExecutionId(client, definition)
            : runBareId(client, definition);
    long jvmCpu = processCpuNanos() - jvmCpuBefore;
    Optional<Double> serverCpu =
        serverCpuBefore.flatMap(
            before ->
                server
                    .flatMap(p -> p.info().totalCpuDuration())
                    .map(after -> after.minus(before).toNanos() / 1e6));
    List<TimedStepActivities.Span> spans = new ArrayList<>(steps.spans.get(id));
    spans.sort(Comparator.comparingInt(TimedStepActivities.Span::position));
    List<Double> latencies = new ArrayList<>();
    for (int i = 1; i < spans.size(); i++) {
      latencies.add((spans.get(i).startNanos() - spans.get(i - 1).endNanos()) / 1e6);
    }
    // Per advance: a step's result recorded → the workflow task handed to the worker (server,
    // matching) → the workflow task answered with the next step (worker, including the call).
    List<Double> dispatch = new ArrayList<>();
    List<Double> decision = new ArrayList<>();
    List<HistoryEvent> events = client.fetchHistory(id).getEvents();
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).getEventType() != EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
        continue;
      }
      Optional<HistoryEvent> started = next(events, i, EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED);
      Optional<HistoryEvent> completed =
          next(events, i, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
      if (started.isPresent() && completed.isPresent()) {
        dispatch.add(millisBetween(events.get(i), started.get()));
        decision.add(millisBetween(started.get(), completed.get()));
      }
    }
    return new Advancement(latencies, dispatch, decision, serverCpu, jvmCpu / 1e6);
  }

  private static Optional<HistoryEvent> next(List<HistoryEvent> events, int from, EventType type) {
    return events.subList(from, events.size()).stream()
        .filter(e -> e.getEventType() == type)
        .findFirst();
  }

  private static double millisBetween(HistoryEvent from, HistoryEvent to) {
    Function<HistoryEvent, Double> millis =
        e -> e.getEventTime().getSeconds() * 1e3 + e.getEventTime().getNanos() / 1e6;
    return millis.apply(to) - millis.apply(from);
  }

  private List<Double> triggerLatencies(
      String namespace, E2eEnvironment env, TimedStepActivities steps) throws InterruptedException {
    ScheduleClient schedules =
        ScheduleClient.newInstance(
            env.stubs(), ScheduleClientOptions.newBuilder().setNamespace(namespace).build());
    ScheduleDefinition definition = sequence("trigger", 1);
    String scheduleId = "bench-trigger-" + UUID.randomUUID();
    Schedule desired = ScheduleMapper.desired(definition).schedule();
    Schedule everyTwoSeconds =
        Schedule.newBuilder(desired)
            .setSpec(
                ScheduleSpec.newBuilder()
                    .setIntervals(List.of(new ScheduleIntervalSpec(Duration.ofSeconds(2))))
                    .build())
            .build();
    var handle =
        schedules.createSchedule(scheduleId, everyTwoSeconds, ScheduleOptions.newBuilder().build());
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(TRIGGERS * 2L + 30).toNanos();
      while (countTriggered(steps, definition.id()) < TRIGGERS && System.nanoTime() < deadline) {
        Thread.sleep(500);
      }
    } finally {
      handle.delete();
    }
    List<Double> latencies = new ArrayList<>();
    steps.spans.forEach(
        (workflowId, spans) -> {
          if (workflowId.startsWith(definition.id() + "-")) {
            Instant nominal = nominalTime(workflowId.substring(definition.id().length() + 1));
            latencies.add((double) (spans.get(0).startEpochMillis() - nominal.toEpochMilli()));
          }
        });
    return latencies;
  }

  private static Instant nominalTime(String suffix) {
    return DateTimeFormatter.ISO_INSTANT.parse(suffix, Instant::from);
  }

  private static long countTriggered(TimedStepActivities steps, String scheduleId) {
    return steps.spans.keySet().stream().filter(id -> id.startsWith(scheduleId + "-")).count();
  }

  /** An execution's id and its wall time from start to result. */
  private record Timed(String id, double millis) {}

  private static Timed timed(Supplier<String> run) {
    long start = System.nanoTime();
    String id = run.get();
    return new Timed(id, (System.nanoTime() - start) / 1e6);
  }

  /** A report row: what one execution's history holds, by kind of event. */
  private static String eventCounts(String name, WorkflowClient client, String id) {
    List<HistoryEvent> events = client.fetchHistory(id).getEvents();
    ToLongFunction<EventType> count =
        type -> events.stream().filter(e -> e.getEventType() == type).count();
    return String.format(
        Locale.ROOT,
        "| %s | %d | %d | %d | %d | %d |%n",
        name,
        events.size(),
        count.applyAsLong(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED),
        count.applyAsLong(EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED),
        count.applyAsLong(EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES),
        count.applyAsLong(EventType.EVENT_TYPE_TIMER_STARTED));
  }

  private static String runScheduleExecutionId(
      WorkflowClient client, ScheduleDefinition definition) {
    String id = definition.id() + "/manual/" + UUID.randomUUID();
    ExecutionResult result =
        ManualExecutions.newExecution(client, id).run(ManualExecutions.input(definition, BENCH));
    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    return id;
  }

  private static String runBareId(WorkflowClient client, ScheduleDefinition definition) {
    String id = "bare/" + UUID.randomUUID();
    BareSequenceWorkflow workflow =
        client.newWorkflowStub(
            BareSequenceWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(id)
                .setTaskQueue(TaskQueues.SCHEDULES)
                .build());
    assertThat(workflow.run(definition)).hasSize(definition.steps().size());
    return id;
  }

  /** {@code groups} groups of one step each. */
  private static ScheduleDefinition sequence(String id, int groups) {
    return definition(id, IntStream.range(0, groups).mapToObj(i -> step(i, "step " + i)).toList());
  }

  /** The Nightly HR Sync's shape (1, 1, 2, 2 steps per group), repeated. */
  private static ScheduleDefinition hrSyncShape(int repeats) {
    List<StepDefinition> steps = new ArrayList<>();
    int[] widths = {1, 1, 2, 2};
    for (int r = 0; r < repeats; r++) {
      for (int g = 0; g < widths.length; g++) {
        for (int w = 0; w < widths[g]; w++) {
          steps.add(step(r * widths.length + g, "step " + r + "." + g + "." + w));
        }
      }
    }
    return definition("overhead", steps);
  }

  private static ScheduleDefinition definition(String id, List<StepDefinition> steps) {
    return aSchedule(id).named(id).withSteps(steps).definition();
  }

  private static StepDefinition step(int index, String name) {
    return aStep(index, name).withStepDefaults().executable("noop.sh").build();
  }

  private static double percentile(List<Double> values, int p) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(rank, sorted.size() - 1)));
  }

  /** The dev server is a child process of this JVM; found by its gRPC port. */
  private static Optional<ProcessHandle> serverProcess(E2eEnvironment env) {
    String port = Integer.toString(env.server().options().port());
    return ProcessHandle.current()
        .descendants()
        .filter(
            p -> p.info().arguments().map(args -> Arrays.asList(args).contains(port)).orElse(false))
        .findFirst();
  }

  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : 0;
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " / " + parts[1] + " / " + parts[2] + " (1 / 5 / 15 min)";
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static String machine() {
    String cpu = "unknown CPU";
    try {
      cpu =
          Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
              .filter(l -> l.startsWith("model name"))
              .findFirst()
              .map(l -> l.substring(l.indexOf(':') + 1).strip())
              .orElse(cpu);
    } catch (IOException ignored) {
      // Not Linux: the core count still says what matters most.
    }
    String memory = "";
    try {
      memory =
          Files.readAllLines(Path.of("/proc/meminfo")).stream()
              .filter(l -> l.startsWith("MemTotal:"))
              .findFirst()
              .map(l -> Long.parseLong(l.replaceAll("\\D", "")) / 1048576.0)
              .map(gib -> String.format(Locale.ROOT, "%.1f GiB RAM, ", gib))
              .orElse("");
    } catch (IOException ignored) {
      // The heap size below still says how much the benchmark could use.
    }
    return Runtime.getRuntime().availableProcessors()
        + " cores ("
        + cpu
        + "), "
        + memory
        + (Runtime.getRuntime().maxMemory() >> 20)
        + " MiB max heap for the test JVM, "
        + System.getProperty("os.name")
        + " "
        + System.getProperty("os.version")
        + ", Java "
        + System.getProperty("java.version");
  }
}
