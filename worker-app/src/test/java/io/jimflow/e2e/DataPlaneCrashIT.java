package io.jimflow.e2e;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.exampledata.ExamplePeople;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import io.jimflow.testing.TestPostgres;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The data plane's crash promise with real processes: a worker SIGKILLed during the full import of
 * a 200,000-row file is replaced, the import resumes from the last committed page, and nothing is
 * imported or recorded twice; the same for a worker stopped in order (SIGTERM) in the middle of it.
 *
 * <p>The SIGKILL runs on PostgreSQL, the store production runs on: the embedded H2 file does not
 * reliably survive a process killed in the middle of a write (docs/benchmarks.md, "Embedded H2: a
 * killed worker's store"). The orderly stop runs on the embedded H2 file, which it closes.
 */
@ExtendWith(TemporalDevServerExtension.class)
class DataPlaneCrashIT {

  @Test
  @ExtendWith(TestPostgres.Required.class)
  void aFullImportResumesAfterSigkillAndImportsEveryAnchorOnce(E2eEnvironment env)
      throws Exception {
    // A schema of its own, left in place like the test's files under target/e2e.
    TestPostgres.Schema schema = TestPostgres.newSchema();
    importSurvivesItsWorker(
        env,
        "data-plane-crash",
        new StoreAccess(schema.schemaUrl(), schema.user(), schema.password()),
        200_000,
        20_000,
        2,
        worker -> worker.kill());
  }

  @Test
  void aFullImportResumesOnTheNextWorkerAfterSigtermAndImportsEveryAnchorOnce(E2eEnvironment env)
      throws Exception {
    Path store = env.newDirectory("data-plane-sigterm-store").resolve("jimflow");
    importSurvivesItsWorker(
        env,
        "data-plane-sigterm",
        new StoreAccess("jdbc:h2:file:" + store + ";FILE_LOCK=FS", "sa", ""),
        100_000,
        10_000,
        // The attempt interrupted by the stop does not count.
        1,
        worker ->
            assertThat(worker.terminate(Duration.ofSeconds(90)))
                .as("a worker stopped by SIGTERM exits 0 once its step has checkpointed")
                .isZero());
  }

  /** The store both workers use, and the test reads afterwards. */
  private record StoreAccess(String url, String user, String password) {}

  /**
   * Starts the full import of {@code people} rows on worker A, stops A with {@code stop} once
   * {@code stopAfter} rows are processed, lets worker B finish it, and checks that every anchor was
   * imported and recorded once.
   *
   * @param attempts the attempts the step reports in the end
   */
  private static void importSurvivesItsWorker(
      E2eEnvironment env,
      String name,
      StoreAccess store,
      int people,
      int stopAfter,
      int attempts,
      Consumer<WorkerProcess> stop)
      throws Exception {
    Path home = env.newDirectory(name);
    Path hr = home.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer out = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(11).write(people, out, n -> {});
      // Two rows again: the run reports them as duplicates, the connector space keeps one each.
      out.write(
          "E0000001,Again,Again,Again Again,a@example.org,Sales,Clerk,Remote,Employee,Active\n");
      out.write(
          "E0000002,Again,Again,Again Again,b@example.org,Sales,Clerk,Remote,Employee,Active\n");
    }
    Map<String, String> workerEnv =
        Map.of(
            "TEMPORAL_NAMESPACE",
            env.newNamespace(name),
            "JIMFLOW_STORE_URL",
            store.url(),
            "JIMFLOW_STORE_USERNAME",
            store.user(),
            "JIMFLOW_STORE_PASSWORD",
            store.password(),
            "JIMFLOW_DATA_PLANE_BASE_DIRECTORY",
            home.toString());
    WorkflowClient client = env.client(workerEnv.get("TEMPORAL_NAMESPACE"));
    WorkerProcess workerA = env.startWorker(name + "-a", workerEnv);

    String id = name + "/" + UUID.randomUUID();
    ScheduleDefinition definition =
        aSchedule(name)
            .named(name)
            .with(
                aStep(0, "HR System - Full Import")
                    .withStepDefaults()
                    .runProfile("HR System", "Full Import")
                    .timeout(Duration.ofMinutes(20))
                    // Short, so the killed worker's attempt is noticed within seconds.
                    .heartbeatTimeout(Duration.ofSeconds(5)))
            .definition();
    ScheduleExecutionWorkflow execution =
        ManualExecutions.start(client, id, definition, ManualExecutions.TESTER);

    StepHeartbeats.awaitProcessed(client, id, stopAfter, Duration.ofMinutes(5));
    stop.accept(workerA);

    WorkerProcess workerB = env.startWorker(name + "-b", workerEnv);
    ExecutionResult result =
        WorkflowStub.fromTyped(execution).getResult(15, TimeUnit.MINUTES, ExecutionResult.class);
    workerB.terminate(Duration.ofSeconds(30));
    // Worker B continued the run record from a committed page: it did not read the file from the
    // start.
    assertThat(workerB.logTail(100_000)).containsPattern("resuming run record .* at rows:[1-9]");

    assertThat(result.status()).isEqualTo(ExecutionStatus.CompleteWithError);
    StepOutcome step = result.steps().get(0);
    assertThat(step.status()).isEqualTo(StepStatus.CompleteWithError);
    assertThat(step.attempts()).isEqualTo(attempts);
    assertThat(step.stats())
        .containsEntry("added", (long) people)
        .containsEntry("errors", 2L)
        .containsEntry("objectsProcessed", people + 2L);

    try (Connection connection =
            DriverManager.getConnection(store.url(), store.user(), store.password());
        Statement sql = connection.createStatement()) {
      assertThat(count(sql, "select count(*) from cso where connected_system_id = 'hr'"))
          .isEqualTo(people);
      assertThat(
              count(sql, "select count(distinct anchor) from cso where connected_system_id = 'hr'"))
          .isEqualTo(people);
      assertThat(count(sql, "select count(*) from run_item")).isEqualTo(people + 2L);
      assertThat(
              count(
                  sql,
                  "select count(*) from (select object_ref, change_type, error_type from run_item"
                      + " group by object_ref, change_type, error_type having count(*) > 1) d"))
          .isZero();
      // Both workers ran the run record; it belongs to the attempt the step reports.
      assertThat(count(sql, "select attempts from run_record")).isEqualTo(attempts);
    }
  }

  private static long count(Statement sql, String query) throws Exception {
    try (ResultSet rows = sql.executeQuery(query)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
