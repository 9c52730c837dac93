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
import io.jimflow.worker.dev.EmbeddedStoreServer;
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
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The data plane's crash promise with real processes: a worker SIGKILLed during the full import of
 * a 200,000-row file is replaced, the import resumes from the last committed page, and nothing is
 * imported or recorded twice; the same for a worker stopped in order (SIGTERM) in the middle of it,
 * and for the store's embedded PostgreSQL itself SIGKILLed in the middle of a 20,000-row import.
 *
 * <p>The workers' stores are schemas of the tests' PostgreSQL, or the embedded PostgreSQL of {@code
 * ./jimflow dev} ({@link EmbeddedStoreServer}) for the test that kills it.
 */
@ExtendWith(TemporalDevServerExtension.class)
class DataPlaneCrashIT {

  @Test
  void aFullImportResumesAfterSigkillAndImportsEveryAnchorOnce(E2eEnvironment env)
      throws Exception {
    importSurvivesItsWorker(
        env,
        "data-plane-crash",
        StoreAccess.of(E2eEnvironment.newStore()),
        200_000,
        20_000,
        2,
        worker -> worker.kill());
  }

  @Test
  void aFullImportResumesOnTheNextWorkerAfterSigtermAndImportsEveryAnchorOnce(E2eEnvironment env)
      throws Exception {
    importSurvivesItsWorker(
        env,
        "data-plane-sigterm",
        StoreAccess.of(E2eEnvironment.newStore()),
        100_000,
        10_000,
        // The attempt interrupted by the stop does not count.
        1,
        worker ->
            assertThat(worker.terminate(Duration.ofSeconds(90)))
                .as("a worker stopped by SIGTERM exits 0 once its step has checkpointed")
                .isZero());
  }

  @Test
  void aFullImportCompletesWhenItsEmbeddedPostgresIsKilledAndBroughtBack(E2eEnvironment env)
      throws Exception {
    String name = "data-plane-postgres-kill";
    int people = 20_000;
    Path home = env.newDirectory(name);
    writeHr(home, people);
    // The embedded PostgreSQL of ./jimflow dev, durable as a user's, on a port of its own.
    EmbeddedStoreServer.Options options =
        new EmbeddedStoreServer.Options(
            home.resolve("postgres"),
            ReservedPorts.reserve(),
            home.resolve("postgres.log"),
            Duration.ofMinutes(2));
    EmbeddedStoreServer server = EmbeddedStoreServer.start(options);
    try {
      StoreAccess store =
          new StoreAccess(
              server.settings().url(), server.settings().user(), server.settings().password());
      // Pages of 200 rows, each its own commit: PostgreSQL imports 20,000 rows in 2,000-row pages
      // within two seconds, too soon to be caught in the middle.
      Path systems = home.resolve("connected-systems.yaml");
      Files.writeString(
          systems,
          Files.readString(E2eEnvironment.csvConnectedSystems())
              .replace("file: data/hr.csv, pageSize: 2000}", "file: data/hr.csv, pageSize: 200}"));
      Map<String, String> workerEnv = new HashMap<>(workerEnv(env, name, store, home));
      workerEnv.put("JIMFLOW_DATA_PLANE_CONFIG", systems.toString());
      WorkflowClient client = env.client(workerEnv.get("TEMPORAL_NAMESPACE"));
      WorkerProcess worker = env.startWorker(name, workerEnv);
      String id = name + "/" + UUID.randomUUID();
      ScheduleExecutionWorkflow execution =
          ManualExecutions.start(
              client,
              id,
              aSchedule(name)
                  .named(name)
                  .with(
                      aStep(0, "HR System - Full Import")
                          .runProfile("HR System", "Full Import")
                          .timeout(Duration.ofMinutes(20))
                          .heartbeatTimeout(Duration.ofSeconds(10))
                          .attempts(5))
                  .definition(),
              ManualExecutions.TESTER);

      long importedAtKill = awaitImported(store, 2_000, Duration.ofMinutes(5));
      ProcessHandle postgres = server.process().orElseThrow();
      postgres.destroyForcibly();
      postgres.onExit().get(30, TimeUnit.SECONDS);
      server.forgetKilled();

      server = EmbeddedStoreServer.start(options);
      assertThat(server.note()).contains("recovered");
      ExecutionResult result =
          WorkflowStub.fromTyped(execution).getResult(15, TimeUnit.MINUTES, ExecutionResult.class);
      worker.terminate(Duration.ofSeconds(30));

      assertThat(importedAtKill).as("killed in the middle of the import").isLessThan(people);
      assertThat(result.status()).isEqualTo(ExecutionStatus.CompleteWithError);
      StepOutcome step = result.steps().get(0);
      assertThat(step.status()).as(step.message()).isEqualTo(StepStatus.CompleteWithError);
      assertImportedOnce(store, people, step);
    } finally {
      server.close();
    }
  }

  /** Waits until the store holds at least {@code atLeast} HR objects; returns how many it holds. */
  private static long awaitImported(StoreAccess store, long atLeast, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (Connection connection =
            DriverManager.getConnection(store.url(), store.user(), store.password());
        Statement sql = connection.createStatement()) {
      while (true) {
        long imported;
        try {
          imported = count(sql, "select count(*) from cso where connected_system_id = 'hr'");
        } catch (java.sql.SQLException notYetMigrated) {
          imported = 0;
        }
        if (imported >= atLeast) {
          return imported;
        }
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "the store holds " + imported + " HR objects after " + timeout + ", not " + atLeast);
        }
        Thread.sleep(10);
      }
    }
  }

  /** The store both workers use, and the test reads afterwards. */
  private record StoreAccess(String url, String user, String password) {

    static StoreAccess of(E2eEnvironment.TestStore store) {
      return new StoreAccess(store.url(), store.schema().user(), store.schema().password());
    }
  }

  /**
   * The HR file of {@code people} rows and two rows again, which the run reports as duplicates (the
   * connector space keeps one each).
   */
  private static void writeHr(Path home, int people) throws Exception {
    Path hr = home.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer out = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(11).write(people, out, n -> {});
      out.write(
          "E0000001,Again,Again,Again Again,a@example.org,Sales,Clerk,Remote,Employee,Active\n");
      out.write(
          "E0000002,Again,Again,Again Again,b@example.org,Sales,Clerk,Remote,Employee,Active\n");
    }
  }

  private static Map<String, String> workerEnv(
      E2eEnvironment env, String name, StoreAccess store, Path home) {
    return Map.of(
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
  }

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
    writeHr(home, people);
    Map<String, String> workerEnv = workerEnv(env, name, store, home);
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
    assertImportedOnce(store, people, step);
    try (Connection connection =
            DriverManager.getConnection(store.url(), store.user(), store.password());
        Statement sql = connection.createStatement()) {
      // Both workers ran the run record; it belongs to the attempt the step reports.
      assertThat(count(sql, "select attempts from run_record")).isEqualTo(attempts);
    }
  }

  /** Every anchor of the file imported and recorded once, whatever was killed on the way. */
  private static void assertImportedOnce(StoreAccess store, int people, StepOutcome step)
      throws Exception {
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
    }
  }

  private static long count(Statement sql, String query) throws Exception {
    try (ResultSet rows = sql.executeQuery(query)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
