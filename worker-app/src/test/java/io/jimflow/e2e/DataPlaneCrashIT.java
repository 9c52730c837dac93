package io.jimflow.e2e;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.data.ExampleDataGenerator;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The data plane's crash promise with real processes: a worker SIGKILLed during the full import of
 * a 200,000-row file is replaced, the import resumes from the last committed page, and nothing is
 * imported or recorded twice.
 */
@ExtendWith(TemporalDevServerExtension.class)
class DataPlaneCrashIT {

  private static final int PEOPLE = 200_000;

  @Test
  void aFullImportResumesAfterSigkillAndImportsEveryAnchorOnce(E2eEnvironment env)
      throws Exception {
    Path home = env.newDirectory("data-plane-crash");
    Path hr = home.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer out = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExampleDataGenerator(11).write(PEOPLE, out, n -> {});
      // Two rows again: the run reports them as duplicates, the connector space keeps one each.
      out.write(
          "E0000001,Again,Again,Again Again,a@example.org,Sales,Clerk,Remote,Employee,Active\n");
      out.write(
          "E0000002,Again,Again,Again Again,b@example.org,Sales,Clerk,Remote,Employee,Active\n");
    }
    String storeUrl = "jdbc:h2:file:" + home.resolve("store/jimflow") + ";FILE_LOCK=FS";
    Map<String, String> workerEnv =
        Map.of(
            "TEMPORAL_NAMESPACE",
            env.newNamespace("data-plane-crash"),
            "JIMFLOW_STORE_URL",
            storeUrl,
            "JIMFLOW_STORE_USERNAME",
            "sa",
            "JIMFLOW_DATA_PLANE_BASE_DIRECTORY",
            home.toString());
    WorkflowClient client = env.client(workerEnv.get("TEMPORAL_NAMESPACE"));
    WorkerProcess workerA = env.startWorker("data-plane-a", workerEnv);

    String id = "data-plane-crash/" + UUID.randomUUID();
    ScheduleDefinition definition =
        aSchedule("data-plane-crash")
            .named("data-plane-crash")
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

    StepHeartbeats.awaitProcessed(client, id, 20_000, Duration.ofMinutes(5));
    workerA.kill();
    long processedAtKill = StepHeartbeats.processed(client, id);

    WorkerProcess workerB = env.startWorker("data-plane-b", workerEnv);
    ExecutionResult result =
        WorkflowStub.fromTyped(execution).getResult(15, TimeUnit.MINUTES, ExecutionResult.class);
    workerB.terminate(Duration.ofSeconds(30));

    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    StepOutcome step = result.steps().get(0);
    assertThat(step.status()).isEqualTo(StepStatus.CompleteWithWarning);
    assertThat(step.attempts()).isEqualTo(2);
    assertThat(step.stats())
        .containsEntry("added", (long) PEOPLE)
        .containsEntry("errors", 2L)
        .containsEntry("objectsProcessed", PEOPLE + 2L);

    try (Connection store = DriverManager.getConnection(storeUrl, "sa", "");
        Statement sql = store.createStatement()) {
      assertThat(count(sql, "select count(*) from cso where connected_system_id = 'hr'"))
          .isEqualTo(PEOPLE);
      assertThat(
              count(sql, "select count(distinct anchor) from cso where connected_system_id = 'hr'"))
          .isEqualTo(PEOPLE);
      assertThat(count(sql, "select count(*) from run_item")).isEqualTo(PEOPLE + 2L);
      assertThat(
              count(
                  sql,
                  "select count(*) from (select object_ref, change_type, error_type from run_item"
                      + " group by object_ref, change_type, error_type having count(*) > 1) d"))
          .isZero();
      assertThat(count(sql, "select attempts from run_record")).isEqualTo(2);
      // The second attempt continued from a committed page: it did not read the file from the
      // start.
      assertThat(processedAtKill).isPositive();
    }
  }

  private static long count(Statement sql, String query) throws Exception {
    try (ResultSet rows = sql.executeQuery(query)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
