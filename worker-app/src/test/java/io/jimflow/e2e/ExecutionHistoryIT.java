package io.jimflow.e2e;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jimflow.cli.JimflowCli;
import io.jimflow.exampledata.ExamplePeople;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.workflowservice.v1.DeleteWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * The audit trail outlives Temporal: a run record that a terminated execution left InProgress is
 * finalized by one housekeeping sweep (so the system can be cleared), and an execution Temporal no
 * longer has is still shown, steps and outcome, from the store's execution history. One worker with
 * its own namespace and store serves both tests.
 */
@ExtendWith(TemporalDevServerExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExecutionHistoryIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Enough rows that the Full Import is far from done when the test terminates it: its attempt goes
   * on until its next heartbeat tells it the execution is gone (within 4 s here).
   */
  private static final int PEOPLE = 200_000;

  private E2eEnvironment env;
  private String namespace;
  private WorkflowClient client;
  private Path home;

  @BeforeAll
  void startWorker(E2eEnvironment env) {
    this.env = env;
    namespace = env.newNamespace("history");
    client = env.client(namespace);
    home = env.newDirectory("history");
    Map<String, String> workerEnv =
        new java.util.HashMap<>(E2eEnvironment.newStore().environment());
    workerEnv.put("TEMPORAL_NAMESPACE", namespace);
    workerEnv.put("JIMFLOW_DATA_PLANE_BASE_DIRECTORY", home.toString());
    workerEnv.put("JIMFLOW_MAINTENANCE_DESTRUCTIVE_TASKS_ENABLED", "true");
    env.startWorker("history", workerEnv);
  }

  @Test
  void aTerminatedFullImportLeavesNoInProgressRecordAfterOneSweepAndItsSystemCanBeCleared()
      throws Exception {
    Path hr = home.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer out = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(5).write(PEOPLE, out, n -> {});
    }
    String id = "history-terminated/" + UUID.randomUUID();
    ScheduleDefinition definition =
        aSchedule("history-terminated")
            .with(
                aStep(0, "HR System - Full Import")
                    .withStepDefaults()
                    .runProfile("HR System", "Full Import")
                    .timeout(Duration.ofMinutes(20))
                    .heartbeatTimeout(Duration.ofSeconds(5)))
            .definition();
    ManualExecutions.start(client, id, definition, ManualExecutions.TESTER);
    // The step runs and its run record is InProgress once a page has been committed.
    StepHeartbeats.awaitProcessed(client, id, 2_000, Duration.ofMinutes(5));
    client.newUntypedWorkflowStub(id).terminate("test: terminated mid Full Import");

    Cli refused = cli("systems", "clear", "hr");
    assertThat(refused.exit()).as("clear before the sweep: " + refused.out()).isNotZero();
    assertThat(refused.err() + refused.out()).contains("is in use");

    Cli sweep = cli("housekeeping", "run");
    assertThat(sweep.exit()).as(sweep.err()).isZero();

    JsonNode runs = JSON.readTree(cli("runs", "list", "--system", "hr", "--json").out());
    assertThat(runs.get("runs")).hasSize(1);
    JsonNode record = runs.get("runs").get(0);
    assertThat(record.get("status").asText()).isEqualTo("Cancelled");
    assertThat(record.get("message").asText())
        .contains("stranded: execution " + id + " was terminated");
    assertThat(
            JSON.readTree(cli("runs", "list", "--status", "InProgress", "--json").out())
                .get("runs"))
        .isEmpty();

    Cli clear = cli("systems", "clear", "hr");
    assertThat(clear.exit()).as(clear.out() + clear.err()).isZero();
  }

  @Test
  void anExecutionDeletedFromTemporalIsStillShownWithItsStepsAndOutcomeFromTheStore()
      throws Exception {
    Path badges = home.resolve("data/badges.csv");
    Files.createDirectories(badges.getParent());
    Files.writeString(
        badges,
        "employeeId,holderName,location,department\n"
            + "E1,Ada Admin,Leeds,IT\n"
            + "E2,Bob Builder,York,Facilities\n");
    String id = "history-deleted/" + UUID.randomUUID();
    ScheduleDefinition definition =
        aSchedule("history-deleted")
            .named("History deleted")
            .with(
                aStep(0, "Badges - Full Import")
                    .withStepDefaults()
                    .runProfile("Badge System", "Full Import"),
                aStep(1, "Count").withStepDefaults().executable("count.sh", "3"),
                aStep(2, "Fail check")
                    .withStepDefaults()
                    .executable("fail.sh")
                    .continueOnFailure(true))
            .definition();
    ScheduleExecutionWorkflow execution =
        ManualExecutions.start(client, id, definition, ManualExecutions.TESTER);
    ExecutionResult result =
        WorkflowStub.fromTyped(execution).getResult(5, TimeUnit.MINUTES, ExecutionResult.class);
    JsonNode fromTemporal = JSON.readTree(cli("executions", "show", id, "--json").out());

    WorkflowExecution run = WorkflowStub.fromTyped(execution).getExecution();
    env.stubs()
        .blockingStub()
        .deleteWorkflowExecution(
            DeleteWorkflowExecutionRequest.newBuilder()
                .setNamespace(namespace)
                .setWorkflowExecution(run)
                .build());
    Await.until(
        () -> !knownToTemporal(run),
        "the execution is deleted",
        Duration.ofMinutes(2),
        Duration.ofMillis(200));

    Cli show = cli("executions", "show", id);
    assertThat(show.exit()).as(show.err()).isZero();
    assertThat(show.out())
        .contains("(from the store: Temporal no longer has it)")
        .contains("Status:    " + result.status())
        .containsPattern("(?m)^0\\s+Badges - Full Import\\s+Complete\\s+1\\s+[0-9a-f-]{36}")
        .containsPattern("(?m)^1\\s+Count\\s+Complete\\s+1\\s")
        .containsPattern("(?m)^2\\s+Fail check\\s+FailedWithError\\s+3\\s+-\\s+'fail.sh' exited");
    JsonNode fromStore = JSON.readTree(cli("executions", "show", id, "--json").out());
    assertThat(fromStore.get("source").asText()).isEqualTo("store");
    assertThat(fromStore.get("status")).isEqualTo(fromTemporal.get("status"));
    assertThat(fromStore.get("message")).isEqualTo(fromTemporal.get("message"));
    assertThat(statusesAndAttempts(fromStore)).isEqualTo(statusesAndAttempts(fromTemporal));

    JsonNode listed = JSON.readTree(cli("executions", "list", "--json").out());
    List<String> stored = new ArrayList<>();
    listed
        .get("executions")
        .forEach(e -> stored.add(e.get("workflowId").asText() + " " + e.get("source").asText()));
    assertThat(stored).contains(id + " store");
  }

  private static List<String> statusesAndAttempts(JsonNode execution) {
    List<String> steps = new ArrayList<>();
    execution
        .get("steps")
        .forEach(
            s ->
                steps.add(
                    s.get("name").asText()
                        + " "
                        + s.get("status").asText()
                        + " "
                        + s.get("attempts").asInt()));
    return steps;
  }

  private boolean knownToTemporal(WorkflowExecution run) {
    try {
      env.stubs()
          .blockingStub()
          .describeWorkflowExecution(
              DescribeWorkflowExecutionRequest.newBuilder()
                  .setNamespace(namespace)
                  .setExecution(run)
                  .build());
      return true;
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }

  private Cli cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = JimflowCli.commandLine();
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    List<String> full = new ArrayList<>(List.of(args));
    full.addAll(List.of("--address", env.target(), "--namespace", namespace));
    return new Cli(cli.execute(full.toArray(String[]::new)), out.toString(), err.toString());
  }

  private record Cli(int exit, String out, String err) {}
}
