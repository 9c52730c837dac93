package io.jimflow.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.common.TaskQueues;
import io.jimflow.e2e.E2eEnvironment;
import io.jimflow.e2e.TemporalDevServerExtension;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.ScheduleExecutionWorkflowImpl;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedules.ScheduleMapper;
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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Orchestration benchmark on the real dev server (not a timed test: it only runs with
 * {@code -Djimflow.benchmark=true}). Steps do nothing, so every figure is orchestration:
 *
 * <ul>
 *   <li>advancement latency: end of a group's last step → start of the next group's first step;
 *   <li>trigger latency: a Temporal Schedule's nominal time → the execution's first step start;
 *   <li>overhead: the same steps run by a bare workflow and by ScheduleExecutionWorkflow, side by
 *       side, as a ratio of wall times.
 * </ul>
 *
 * <p>Run: {@code ./mvnw -B install -DskipTests && ./mvnw -B verify -pl worker-app -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ScheduleBenchmarkIT -Djimflow.benchmark=true};
 * the report lands in {@code worker-app/target/benchmarks/schedule-execution.md}.
 */
@ExtendWith(TemporalDevServerExtension.class)
@EnabledIfSystemProperty(named = "jimflow.benchmark", matches = "true")
class ScheduleBenchmarkIT {

  private static final Initiator BENCH = new Initiator(InitiatorType.System, "bench", "benchmark");
  private static final int ADVANCES = Integer.getInteger("jimflow.benchmark.advances", 400);
  private static final int OVERHEAD_ROUNDS = Integer.getInteger("jimflow.benchmark.rounds", 7);
  private static final int TRIGGERS = Integer.getInteger("jimflow.benchmark.triggers", 20);

  @Test
  void orchestrationFigures(E2eEnvironment env) throws Exception {
    String namespace = env.newNamespace("bench");
    WorkflowClient client = env.client(namespace);
    TimedStepActivities steps = new TimedStepActivities();
    WorkerFactory factory = WorkerFactory.newInstance(client);
    Worker worker = factory.newWorker(TaskQueues.SCHEDULES);
    worker.registerWorkflowImplementationTypes(
        ScheduleExecutionWorkflowImpl.class, BareSequenceWorkflowImpl.class);
    worker.registerActivitiesImplementations(steps);
    factory.start();
    try {
      StringBuilder report = new StringBuilder();
      report.append("Machine: ").append(machine()).append("\n\n");

      // Warm-up: JIT and server caches, not measured.
      runScheduleExecution(client, sequence("warmup", 30));
      runBare(client, sequence("warmup", 30));

      List<Double> advances = advancementLatencies(client, steps);
      report.append(
          String.format(
              Locale.ROOT,
              "| advancement latency (%d advances) | p50 %.1f ms | p99 %.1f ms | max %.1f ms |%n",
              advances.size(), percentile(advances, 50), percentile(advances, 99), Collections.max(advances)));

      List<Double> ratios = new ArrayList<>();
      List<Double> bareMs = new ArrayList<>();
      List<Double> jimflowMs = new ArrayList<>();
      ScheduleDefinition shape = hrSyncShape(25);
      for (int round = 0; round < OVERHEAD_ROUNDS; round++) {
        double bare = runBare(client, shape);
        double jimflow = runScheduleExecution(client, shape);
        bareMs.add(bare);
        jimflowMs.add(jimflow);
        ratios.add(jimflow / bare);
      }
      report.append(
          String.format(
              Locale.ROOT,
              "| overhead (%d steps in %d groups, %d rounds side by side) | bare median %.0f ms |"
                  + " ScheduleExecutionWorkflow median %.0f ms | median ratio %.2f× |%n",
              shape.steps().size(),
              shape.steps().stream().mapToInt(StepDefinition::index).max().orElse(0) + 1,
              OVERHEAD_ROUNDS,
              percentile(bareMs, 50),
              percentile(jimflowMs, 50),
              percentile(ratios, 50)));

      List<Double> triggers = triggerLatencies(client, namespace, env, steps);
      report.append(
          String.format(
              Locale.ROOT,
              "| trigger latency (%d scheduled starts) | p50 %.0f ms | p99 %.0f ms | max %.0f ms |%n",
              triggers.size(), percentile(triggers, 50), percentile(triggers, 99), Collections.max(triggers)));

      Path out = env.projectHome().resolve("worker-app/target/benchmarks/schedule-execution.md");
      Files.createDirectories(out.getParent());
      Files.writeString(out, report.toString());
      System.out.println("\n" + report);
      assertThat(advances).hasSizeGreaterThanOrEqualTo(200);
    } finally {
      factory.shutdown();
    }
  }

  private List<Double> advancementLatencies(WorkflowClient client, TimedStepActivities steps) {
    ScheduleDefinition definition = sequence("advance", ADVANCES + 1);
    String id = runScheduleExecutionId(client, definition);
    List<TimedStepActivities.Span> spans = new ArrayList<>(steps.spans.get(id));
    spans.sort(Comparator.comparingInt(TimedStepActivities.Span::position));
    List<Double> latencies = new ArrayList<>();
    for (int i = 1; i < spans.size(); i++) {
      latencies.add((spans.get(i).startNanos() - spans.get(i - 1).endNanos()) / 1e6);
    }
    return latencies;
  }

  private List<Double> triggerLatencies(
      WorkflowClient client, String namespace, E2eEnvironment env, TimedStepActivities steps)
      throws InterruptedException {
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
    var handle = schedules.createSchedule(scheduleId, everyTwoSeconds, ScheduleOptions.newBuilder().build());
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

  private static double runScheduleExecution(WorkflowClient client, ScheduleDefinition definition) {
    long start = System.nanoTime();
    runScheduleExecutionId(client, definition);
    return (System.nanoTime() - start) / 1e6;
  }

  private static String runScheduleExecutionId(WorkflowClient client, ScheduleDefinition definition) {
    String id = definition.id() + "/manual/" + UUID.randomUUID();
    ScheduleExecutionWorkflow workflow =
        client.newWorkflowStub(
            ScheduleExecutionWorkflow.class,
            WorkflowOptions.newBuilder().setWorkflowId(id).setTaskQueue(TaskQueues.SCHEDULES).build());
    ExecutionResult result =
        workflow.run(new ScheduleExecutionInput(definition, BENCH, TriggerKind.Manual, null));
    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    return id;
  }

  private static double runBare(WorkflowClient client, ScheduleDefinition definition) {
    BareSequenceWorkflow workflow =
        client.newWorkflowStub(
            BareSequenceWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId("bare/" + UUID.randomUUID())
                .setTaskQueue(TaskQueues.SCHEDULES)
                .build());
    long start = System.nanoTime();
    workflow.run(definition);
    return (System.nanoTime() - start) / 1e6;
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
    return new ScheduleDefinition(id, id, null, true, null, null, null, null, steps);
  }

  private static StepDefinition step(int index, String name) {
    return new StepDefinition(
        index, name, null, new ExecutableStep("noop.sh", List.of(), null, null), null, null, null, null);
  }

  private static double percentile(List<Double> values, int p) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(rank, sorted.size() - 1)));
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
    return Runtime.getRuntime().availableProcessors()
        + " cores ("
        + cpu
        + "), "
        + (Runtime.getRuntime().maxMemory() >> 20)
        + " MiB max heap for the test JVM, "
        + System.getProperty("os.name")
        + " "
        + System.getProperty("os.version")
        + ", Java "
        + System.getProperty("java.version");
  }
}
