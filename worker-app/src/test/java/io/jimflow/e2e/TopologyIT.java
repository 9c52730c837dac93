package io.jimflow.e2e;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.exampledata.ExamplePeople;
import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.deploy.DesiredSchedule;
import io.jimflow.schedule.deploy.ScheduleMapper;
import io.jimflow.schedule.file.ScheduleDefinitions;
import io.jimflow.testing.ScheduleBuilders.StepBuilder;
import io.temporal.api.workflow.v1.PendingActivityInfo;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import io.temporal.client.WorkflowStub;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleDescription;
import io.temporal.client.schedules.ScheduleHandle;
import io.temporal.client.schedules.ScheduleIntervalSpec;
import io.temporal.client.schedules.ScheduleOptions;
import io.temporal.client.schedules.ScheduleSpec;
import io.temporal.common.SearchAttributeKey;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * jimflow where its users run it: the official Temporal server on PostgreSQL, the store on the same
 * PostgreSQL, three worker processes sharing one data directory. Workers and the server are killed
 * and replaced mid-work, and nothing is lost or done twice.
 *
 * <p>The demo runs first: it expects an empty store, and the later cases leave theirs behind.
 */
@Tag("topology")
@ExtendWith(TopologyExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TopologyIT {

  /** Generous: three JVMs, a Temporal server and PostgreSQL share two loaded cores. */
  private static final Duration PATIENCE = Duration.ofMinutes(5);

  @Test
  @Order(1)
  void theDemoEndsAsOnTheDevServer(TopologyEnvironment env) {
    env.topUpWorkers();

    DemoIT.assertDemoEndsAsExpected(
        env.projectHome(), env.target(), env.namespace(), env.dataDirectory(), env.directory());
  }

  @Test
  @Order(2)
  void aFullSynchronisationResumesOnAnotherWorkerAfterItsWorkerIsKilled(TopologyEnvironment env)
      throws Exception {
    env.topUpWorkers();
    int people = 20_000;
    Path hr = env.dataDirectory().resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer out = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(16).write(people, out, n -> {});
    }
    String id = "topology-worker-kill/" + UUID.randomUUID();
    ScheduleExecutionWorkflow execution =
        start(
            env.client(),
            id,
            schedule(
                "topology-worker-kill",
                runProfileStep(0, "HR System - Full Import", "Full Import"),
                runProfileStep(1, "HR System - Full Sync", "Full Synchronisation")));

    // The synchronisation is under way and has committed its first page.
    awaitTrue(() -> progress(env.client(), id).currentGroup() == 2, "the sync started");
    StepHeartbeats.awaitProcessed(env.client(), id, 1, PATIENCE);
    PendingActivityInfo sync = onlyPendingStep(env.client(), id);
    WorkerProcess runner =
        env.workerByIdentity(sync.getLastWorkerIdentity())
            .orElseThrow(
                () -> new AssertionError("not our worker: " + sync.getLastWorkerIdentity()));
    runner.kill();
    long processedAtKill = StepHeartbeats.processed(env.client(), id);

    ExecutionResult result =
        WorkflowStub.fromTyped(execution)
            .getResult(PATIENCE.toSeconds(), TimeUnit.SECONDS, ExecutionResult.class);

    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    StepOutcome syncOutcome = result.steps().get(1);
    assertThat(syncOutcome.status()).isEqualTo(StepStatus.Complete);
    assertThat(syncOutcome.attempts()).isEqualTo(2);
    assertThat(processedAtKill).isPositive().isLessThan(people);
    try (Connection store = env.store()) {
      String runRecord =
          single(
              store,
              "select id from run_record where execution_id = ? and run_profile_id = 'full-sync'",
              id);
      assertThat(single(store, "select attempts from run_record where id = ?", runRecord))
          .isEqualTo("2");
      // The second attempt went on from the committed pages: nothing was processed or recorded
      // twice.
      assertThat(single(store, "select objects_processed from run_record where id = ?", runRecord))
          .isEqualTo(
              single(store, "select objects_to_process from run_record where id = ?", runRecord));
      assertThat(single(store, "select count(*) from run_item where run_record_id = ?", runRecord))
          .isEqualTo(single(store, "select items_written from run_record where id = ?", runRecord))
          .isNotEqualTo("0");
      assertThat(
              single(
                  store,
                  "select count(*) from (select object_ref, cso_id, change_type, error_type"
                      + " from run_item where run_record_id = ?"
                      + " group by object_ref, cso_id, change_type, error_type"
                      + " having count(*) > 1) duplicated",
                  runRecord))
          .as("run items recorded twice")
          .isEqualTo("0");
    }
    assertThat(env.workers()).hasSize(TopologyEnvironment.WORKERS - 1).doesNotContain(runner);
  }

  @Test
  @Order(3)
  void anExecutionCompletesWhenTheServerIsKilledAndRestartedAndNoStepRunsTwice(
      TopologyEnvironment env) throws Exception {
    env.topUpWorkers();
    Path ledger = env.newDirectory("server-kill").resolve("completed.txt");
    String id = "topology-server-kill/" + UUID.randomUUID();
    start(
        env.client(),
        id,
        schedule(
            "topology-server-kill",
            recordingStep(0, "long count", ledger, 120),
            recordingStep(0, "short count", ledger, 8),
            recordingStep(1, "after", ledger, 4)));
    StepHeartbeats.awaitProcessed(env.client(), id, 3, PATIENCE);

    long killedPid = env.server().pid();
    env.server().kill();
    assertThat(ProcessHandle.of(killedPid)).isEmpty();
    env.server().restart();

    ExecutionResult result =
        env.client()
            .newUntypedWorkflowStub(id)
            .getResult(PATIENCE.toSeconds(), TimeUnit.SECONDS, ExecutionResult.class);
    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(result.steps()).extracting(StepOutcome::status).containsOnly(StepStatus.Complete);
    // Each program appends one line when it has counted to its end: once per step, whatever
    // attempt got there.
    assertThat(Files.readAllLines(ledger))
        .extracting(line -> line.split("\\|")[1])
        .containsExactlyInAnyOrder("long count", "short count", "after");
  }

  @Test
  @Order(4)
  void aScheduleFiringEveryFewSecondsLosesNoFireWhileAWorkerIsReplaced(TopologyEnvironment env)
      throws Exception {
    List<WorkerProcess> workers = env.topUpWorkers();
    String scheduleId = "topology-every-3s";
    Duration interval = Duration.ofSeconds(3);
    DesiredSchedule desired =
        ScheduleMapper.desired(
            ScheduleDefinitions.parse(
                    """
                    schedules:
                      - id: topology-every-3s
                        name: Every three seconds
                        trigger: {every: {minutes: 1}}
                        steps: [{index: 0, name: Count, executable: {path: count.sh, args: ["2", "0.2"]}}]
                    """,
                    "test")
                .get(0));
    // The file format counts in minutes; seconds keep the test short, so the spec is set here.
    Schedule fast =
        Schedule.newBuilder(desired.schedule())
            .setSpec(
                ScheduleSpec.newBuilder()
                    .setIntervals(List.of(new ScheduleIntervalSpec(interval)))
                    .build())
            .build();
    ScheduleHandle schedule =
        env.scheduleClient()
            .createSchedule(
                scheduleId,
                fast,
                ScheduleOptions.newBuilder()
                    .setMemo(Map.of(ScheduleMapper.MANAGED_MEMO, true))
                    .build());
    try {
      awaitTrue(() -> schedule.describe().getInfo().getNumActions() >= 2, "two fires");

      WorkerProcess stopped = workers.get(0);
      assertThat(stopped.terminate(Duration.ofSeconds(90))).as("graceful stop").isZero();
      long firesWhileDown = schedule.describe().getInfo().getNumActions();
      WorkerProcess replacement = env.startWorker("topology-replacement");
      try {
        awaitTrue(
            () -> schedule.describe().getInfo().getNumActions() >= firesWhileDown + 3,
            "three more fires after the replacement started");
      } finally {
        schedule.pause("topology test ends");
        replacement.terminate(Duration.ofSeconds(90));
      }

      ScheduleDescription described = schedule.describe();
      awaitTrue(
          () ->
              env.client().listExecutions("TemporalScheduledById = '" + scheduleId + "'").count()
                  == described.getInfo().getNumActions(),
          "visibility lists every started run");
      assertThat(described.getInfo().getNumActionsMissedCatchupWindow()).isZero();
      List<WorkflowExecutionMetadata> runs =
          env.client()
              .listExecutions("TemporalScheduledById = '" + scheduleId + "'")
              .sorted((a, b) -> scheduledAt(a).compareTo(scheduledAt(b)))
              .toList();
      for (WorkflowExecutionMetadata run : runs) {
        ExecutionResult result =
            env.client()
                .newUntypedWorkflowStub(run.getExecution().getWorkflowId())
                .getResult(PATIENCE.toSeconds(), TimeUnit.SECONDS, ExecutionResult.class);
        assertThat(result.status())
            .as(run.getExecution().getWorkflowId())
            .isEqualTo(ExecutionStatus.Complete);
      }
      // Every interval between the first and the last fire either started a run or was skipped
      // by the overlap policy (SKIP): none was lost.
      long intervals =
          Duration.between(scheduledAt(runs.get(0)), scheduledAt(runs.get(runs.size() - 1)))
                  .dividedBy(interval)
              + 1;
      assertThat(runs.size() + described.getInfo().getNumActionsSkippedOverlap())
          .isEqualTo(intervals);
    } finally {
      schedule.delete();
    }
  }

  private static Instant scheduledAt(WorkflowExecutionMetadata run) {
    OffsetDateTime at =
        run.getTypedSearchAttributes()
            .get(SearchAttributeKey.forOffsetDateTime("TemporalScheduledStartTime"));
    return at.toInstant();
  }

  private static ExecutionProgress progress(WorkflowClient client, String id) {
    return client.newWorkflowStub(ScheduleExecutionWorkflow.class, id).progress();
  }

  private static PendingActivityInfo onlyPendingStep(WorkflowClient client, String id) {
    List<PendingActivityInfo> pending = StepHeartbeats.pending(client, id);
    assertThat(pending).hasSize(1);
    return pending.get(0);
  }

  private static ScheduleExecutionWorkflow start(
      WorkflowClient client, String id, ScheduleDefinition definition) {
    return ManualExecutions.start(client, id, definition, ManualExecutions.TESTER);
  }

  private static ScheduleDefinition schedule(String id, StepBuilder... steps) {
    return aSchedule(id).named(id).with(steps).definition();
  }

  private static StepBuilder runProfileStep(int index, String name, String runProfile) {
    return aStep(index, name)
        .runProfile("HR System", runProfile)
        .timeout(Duration.ofMinutes(20))
        .attemptsOrDefault(null)
        // Short, so the killed worker's attempt is noticed soon; longer than a page of 2,000
        // objects takes on a loaded machine, since a step heartbeats once per committed page.
        .heartbeatTimeout(Duration.ofSeconds(20));
  }

  private static StepBuilder recordingStep(int index, String name, Path ledger, int units) {
    return aStep(index, name)
        .executable(
            TopologyEnvironment.RECORDER, ledger.toString(), Integer.toString(units), "0.25")
        .timeout(Duration.ofMinutes(10))
        .attemptsOrDefault(null)
        .heartbeatTimeout(Duration.ofSeconds(10));
  }

  private static void awaitTrue(BooleanSupplier condition, String what)
      throws InterruptedException {
    Await.until(condition, what, PATIENCE, Duration.ofMillis(250));
  }

  private static String single(Connection connection, String query, String parameter)
      throws Exception {
    try (PreparedStatement statement = connection.prepareStatement(query)) {
      statement.setString(1, parameter);
      try (ResultSet rows = statement.executeQuery()) {
        assertThat(rows.next()).as(query).isTrue();
        String value = rows.getString(1);
        assertThat(rows.next()).as("one row: " + query).isFalse();
        return value;
      }
    }
  }
}
