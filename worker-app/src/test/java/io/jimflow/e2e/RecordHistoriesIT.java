package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.cli.JimflowCli;
import io.jimflow.client.JimflowClient;
import io.jimflow.client.MaintenanceClient;
import io.jimflow.client.WorkItemClient;
import io.jimflow.common.TaskQueues;
import io.jimflow.maintenance.HistoryRetentionInput;
import io.jimflow.maintenance.HistoryRetentionWorkflow;
import io.jimflow.resource.Resources;
import io.jimflow.runrecords.RunRecordsQuestion;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.workitem.WorkItemSpec;
import io.jimflow.workitem.WorkItemState;
import io.jimflow.workitem.WorkItemView;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Records the histories that {@code RecordedHistoriesReplayTest} (module workflows) replays: one or
 * more real executions of every workflow type, run by a real worker process on the real dev server,
 * written as JSON to {@code workflows/src/test/resources/histories/<WorkflowType>/}.
 *
 * <p>Run only on request, after a workflow change that went behind {@code Workflow.getVersion}: new
 * histories go next to the old ones (open executions of the old code still depend on those), so the
 * recorder writes files named by the date and time (UTC, to the minute) and never overwrites:
 *
 * <pre>
 * ./mvnw -B -ntp verify -pl worker-app -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dit.test=RecordHistoriesIT -Djimflow.recordHistories=true
 * </pre>
 */
@EnabledIfSystemProperty(named = "jimflow.recordHistories", matches = "true")
@ExtendWith(TemporalDevServerExtension.class)
class RecordHistoriesIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Initiator RECORDER =
      new Initiator(InitiatorType.User, "recorder", "History recorder");
  private static final Duration WAIT = Duration.ofMinutes(3);

  private E2eEnvironment env;
  private String namespace;
  private WorkflowClient client;
  private Path histories;
  // To the minute: histories recorded on one day after different changes sit side by side.
  private final String stamp =
      java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm")
          .format(java.time.LocalDateTime.now(java.time.ZoneOffset.UTC));
  private final List<String> types =
      List.of(System.getProperty("jimflow.recordHistories.types", "").split(",")).stream()
          .map(String::strip)
          .filter(t -> !t.isEmpty())
          .toList();

  @Test
  void recordsARealExecutionOfEveryWorkflowType(E2eEnvironment env) throws Exception {
    this.env = env;
    namespace = env.newNamespace("histories");
    client = env.client(namespace);
    histories = env.projectHome().resolve("workflows/src/test/resources/histories");
    Path dir = env.newDirectory("histories");
    WorkerProcess first = env.startWorker("histories-a", workerEnv(dir));
    JimflowClient jimflow = new JimflowClient(client, env.scheduleClient());
    MaintenanceClient maintenance = jimflow.maintenance();

    String generate =
        maintenance.startDataGeneration(200, dir.resolve("data/hr.csv").toString(), 7L, RECORDER);
    maintenance.awaitDataGeneration(generate);
    save("DataGeneration", "generate-200-people", generate);

    assertThat(startShipped("nightly-hr-sync")).as("the nightly HR sync ran").isZero();
    saveAll("ScheduleExecution", "nightly-hr-sync");
    recordTwoRunsTakingTurnsOnOneSystem();
    recordARunThatEndsWithErrorsAndNotifies();

    jimflow
        .runRecords()
        .ask(new RunRecordsQuestion(RunRecordsQuestion.Kind.List, "hr", null, null, false, 20));
    saveAll("RunRecords", "list-hr");

    String housekeeping = maintenance.startHousekeeping(RECORDER);
    maintenance.awaitHousekeeping(housekeeping);
    save("Housekeeping", "one-cycle", housekeeping);

    String retention = "histories-retention-" + stamp;
    client
        .newWorkflowStub(
            HistoryRetentionWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(retention)
                .setTaskQueue(TaskQueues.MAINTENANCE)
                .build())
        .run(new HistoryRetentionInput(RECORDER, null, 100));
    save("HistoryRetention", "default-periods", retention);

    String clear = maintenance.startClear("badges", true, RECORDER);
    maintenance.awaitSystemTask(clear);
    save("ClearConnectedSystem", "badges-with-history", clear);
    String delete = maintenance.startDelete("badges", RECORDER);
    maintenance.awaitSystemTask(delete);
    save("DeleteConnectedSystem", "badges", delete);

    recordAWorkItemReplacedRestartedAndFinished(dir, first);
  }

  /**
   * Two manual runs of the nightly HR sync started together: the second waits for "HR System" (and
   * each later resource) while the first holds it. Keeps both executions and the run of the HR
   * System lock that granted, queued and released the most claims.
   */
  /** The script demo ends CompleteWithError and so starts a notification (no webhook: a no-op). */
  private void recordARunThatEndsWithErrorsAndNotifies() throws Exception {
    startShipped("script-demo");
    saveAll(
        "ScheduleExecution",
        "script-demo-notifies",
        "WorkflowType = 'ScheduleExecution' AND JimflowScheduleId = 'script-demo'");
    saveAll("JimflowNotification", "script-demo");
  }

  /** Runs a schedule of {@code config/schedules.yaml} to its end; its exit code. */
  private int startShipped(String schedule) {
    return CliRun.of(
            env,
            namespace,
            "start",
            schedule,
            "-f",
            env.projectHome().resolve("config/schedules.yaml").toString(),
            "--wait")
        .exit();
  }

  private void recordTwoRunsTakingTurnsOnOneSystem() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      StringWriter out = new StringWriter();
      int exit =
          JimflowCli.commandLine()
              .setOut(new PrintWriter(out, true))
              .setErr(new PrintWriter(new StringWriter()))
              .execute(
                  "start",
                  "nightly-hr-sync",
                  "-f",
                  env.projectHome().resolve("config/schedules.yaml").toString(),
                  "--address",
                  env.target(),
                  "--namespace",
                  namespace);
      assertThat(exit).as("a manual run started").isZero();
      ids.add(out.toString().strip());
    }
    for (String id : ids) {
      client.newUntypedWorkflowStub(id).getResult(WAIT.toSeconds(), TimeUnit.SECONDS, Map.class);
    }
    saveAll(
        "ScheduleExecution",
        "nightly-hr-sync-twice",
        "WorkflowId = '" + ids.get(0) + "' OR WorkflowId = '" + ids.get(1) + "'");
    List<WorkflowExecutionInfo> locks =
        closedRuns("WorkflowId = '" + Resources.lockWorkflowId("HR System") + "'");
    WorkflowExecutionInfo busiest =
        locks.stream()
            .max(Comparator.comparingLong(WorkflowExecutionInfo::getHistoryLength))
            .orElseThrow();
    write(
        "ResourceLock",
        "hr-system-two-claimants",
        client.fetchHistory(
            busiest.getExecution().getWorkflowId(), busiest.getExecution().getRunId()));
  }

  /**
   * Scheduled for later, replaced by a schedule for now, interrupted by a worker's graceful
   * shutdown (ShutdownConfirmed, then a restart through continue-as-new), finished by a second
   * worker: two runs of one workflow id.
   */
  private void recordAWorkItemReplacedRestartedAndFinished(Path dir, WorkerProcess first)
      throws Exception {
    WorkItemClient items = new WorkItemClient(client);
    Path data = dir.resolve("lines.txt");
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 60_000; i++) {
      lines.append("identity ").append(i).append('\n');
    }
    Files.writeString(data, lines.toString());
    String state =
        JSON.createObjectNode()
            .put("path", data.toString())
            .put("chunkLines", 500)
            .put("pauseMillis", 100)
            .put("resultPath", dir.resolve("results.jsonl").toString())
            .toString();
    String guid = java.util.UUID.randomUUID().toString();
    items.schedule(
        WorkItemSpec.of(guid, "line-count", state, Instant.now().plus(Duration.ofHours(1)))
            .withHeartbeatTimeout(Duration.ofSeconds(20)));
    items.schedule(
        WorkItemSpec.of(guid, "line-count", state, Instant.now())
            .withHeartbeatTimeout(Duration.ofSeconds(20)));
    awaitState(items, guid, WorkItemState.Running);
    assertThat(first.terminate(Duration.ofSeconds(90))).as(first.logTail(40)).isNotEqualTo(-1);
    env.startWorker("histories-b", workerEnv(dir));
    WorkItemView end =
        client.newUntypedWorkflowStub(guid).getResult(180, TimeUnit.SECONDS, WorkItemView.class);
    assertThat(end.state()).isEqualTo(WorkItemState.Finished);
    saveAll("WorkItem", "replaced-shutdown-restarted-finished", "WorkflowId = '" + guid + "'");
  }

  private void awaitState(WorkItemClient items, String guid, WorkItemState state)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    WorkItemView last = null;
    while (System.nanoTime() < deadline) {
      try {
        last = items.show(guid);
        if (last.state() == state) {
          return;
        }
      } catch (RuntimeException notYet) {
        // its first workflow task may not have run yet
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        "work item " + guid + " was not " + state + " within " + WAIT + "; last: " + last);
  }

  /** The store of each worker home: one per home, shared by the workers started on it. */
  private final Map<Path, E2eEnvironment.TestStore> stores =
      new java.util.concurrent.ConcurrentHashMap<>();

  private Map<String, String> workerEnv(Path dir) {
    Map<String, String> env =
        new java.util.HashMap<>(
            stores.computeIfAbsent(dir, d -> E2eEnvironment.newStore()).environment());
    env.putAll(
        Map.of(
            "TEMPORAL_NAMESPACE",
            namespace,
            "JIMFLOW_DATA_PLANE_BASE_DIRECTORY",
            dir.toString(),
            "JIMFLOW_WORK_ITEMS_DEMO_KINDS",
            "true",
            "JIMFLOW_WORK_ITEMS_ROOTS",
            dir.toString(),
            "JIMFLOW_WORK_ITEMS_WATCH_INTERVAL",
            "500ms",
            "JIMFLOW_WORKER_SHUTDOWN_GRACE_PERIOD",
            "30s",
            "JIMFLOW_MAINTENANCE_DESTRUCTIVE_TASKS_ENABLED",
            "true"));
    return env;
  }

  private void save(String type, String name, String workflowId) throws Exception {
    write(type, name, client.fetchHistory(workflowId));
  }

  /** Every closed run of a type (or matching a visibility query), oldest first. */
  private void saveAll(String type, String name) throws Exception {
    saveAll(type, name, "WorkflowType = '" + type + "'");
  }

  private void saveAll(String type, String name, String query) throws Exception {
    List<WorkflowExecutionInfo> runs = closedRuns(query);
    for (int i = 0; i < runs.size(); i++) {
      WorkflowExecutionInfo run = runs.get(i);
      write(
          type,
          runs.size() == 1 ? name : name + "-run" + (i + 1),
          client.fetchHistory(run.getExecution().getWorkflowId(), run.getExecution().getRunId()));
    }
  }

  /** The runs a visibility query finds once all of them are closed, oldest first. */
  private List<WorkflowExecutionInfo> closedRuns(String query) throws Exception {
    List<WorkflowExecutionInfo> runs = new ArrayList<>();
    long deadline = System.nanoTime() + WAIT.toNanos();
    // Visibility lags a moment behind the executions.
    while (runs.isEmpty() || runs.stream().anyMatch(r -> !r.hasCloseTime())) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no closed executions for " + query + " within " + WAIT);
      }
      Thread.sleep(250);
      runs =
          new ArrayList<>(
              env.stubs()
                  .blockingStub()
                  .listWorkflowExecutions(
                      ListWorkflowExecutionsRequest.newBuilder()
                          .setNamespace(namespace)
                          .setQuery(query)
                          .build())
                  .getExecutionsList());
    }
    runs.sort(
        Comparator.comparing(
            r -> r.getStartTime().getSeconds() * 1_000_000_000L + r.getStartTime().getNanos()));
    return runs;
  }

  private void write(String type, String name, WorkflowExecutionHistory history) throws Exception {
    if (!types.isEmpty() && !types.contains(type)) {
      return;
    }
    Path file = histories.resolve(type).resolve(stamp + "-" + name + ".json");
    // Recorded histories are never overwritten: open executions of older code depend on them.
    for (int n = 2; Files.exists(file); n++) {
      file = histories.resolve(type).resolve(stamp + "-" + name + "-" + n + ".json");
    }
    Files.createDirectories(file.getParent());
    Files.writeString(file, history.toJson(true));
  }
}
