package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.client.WorkItemClient;
import io.jimflow.client.WorkItemSummary;
import io.jimflow.workitem.RunCheckpoint;
import io.jimflow.workitem.WorkItemSpec;
import io.jimflow.workitem.WorkItemState;
import io.jimflow.workitem.WorkItemTransition;
import io.jimflow.workitem.WorkItemView;
import io.temporal.client.WorkflowClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Work items with real worker processes: a graceful shutdown ends the item ShutdownConfirmed and
 * the restarted instance continues from the saved offset; a killed worker is noticed by the
 * heartbeat timeout and the item restarts Aborted → AbortedRestart, again from its last checkpoint.
 */
@ExtendWith(TemporalDevServerExtension.class)
class WorkItemLifecycleIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int LINES = 60_000;
  // The shipped kinds take UUID guids only.
  private static final String COUNT_SHUTDOWN = "c0000000-0000-4000-8000-000000000001";
  private static final String COUNT_CRASH = "c0000000-0000-4000-8000-000000000002";

  @Test
  void aGracefulShutdownEndsTheItemShutdownConfirmedAndItsRestartContinuesFromTheSavedOffset(
      E2eEnvironment env) throws Exception {
    String namespace = env.newNamespace("items-shutdown");
    WorkItemClient items = new WorkItemClient(env.client(namespace));
    Path dir = env.newDirectory("items-shutdown");
    Path data = lines(dir);
    Path results = dir.resolve("results.jsonl");
    WorkerProcess first = env.startWorker("items-a", workerEnv(namespace, dir));

    items.schedule(
        WorkItemSpec.of(COUNT_SHUTDOWN, "line-count", state(data, results), Instant.now())
            .withHeartbeatTimeout(Duration.ofSeconds(20)));
    await(items, COUNT_SHUTDOWN, v -> v.state() == WorkItemState.Running, Duration.ofSeconds(60));
    PendingHeartbeats.await(
        env.client(namespace),
        COUNT_SHUTDOWN,
        RunCheckpoint.class,
        c -> c.stateJson() != null,
        "a saved checkpoint",
        Duration.ofSeconds(60));
    assertThat(first.terminate(Duration.ofSeconds(60))).as(first.logTail(40)).isNotEqualTo(-1);
    env.startWorker("items-b", workerEnv(namespace, dir));

    WorkItemView end = result(env.client(namespace), COUNT_SHUTDOWN);

    assertThat(states(end))
        .containsSubsequence(
            WorkItemState.Running,
            WorkItemState.ShutdownRequest,
            WorkItemState.ShutdownConfirmed,
            WorkItemState.ShutdownRestart,
            WorkItemState.WaitingForStart,
            WorkItemState.Queued,
            WorkItemState.Running,
            WorkItemState.Finished);
    List<JsonNode> finished = finishedCalls(results);
    assertThat(finished).hasSize(2);
    assertThat(finished.get(0).path("finalState").asText()).isEqualTo("ShutdownConfirmed");
    assertThat(finished.get(0).path("restartFollows").asBoolean()).isTrue();
    long savedAt = finished.get(0).path("bytes").asLong();
    assertThat(savedAt).isPositive().isLessThan(Files.size(data));
    assertCompleteAndResumedFrom(finished.get(1), data, savedAt);
    // Visibility lags a moment behind; the finished item is listed by state and by kind.
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    List<WorkItemSummary> listed = items.list(WorkItemState.Finished, "line-count");
    while (listed.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(500);
      listed = items.list(WorkItemState.Finished, "line-count");
    }
    assertThat(listed)
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.guid()).isEqualTo(COUNT_SHUTDOWN);
              assertThat(i.status()).isEqualTo("Completed");
            });
    assertThat(items.list(WorkItemState.Running, null)).isEmpty();
  }

  @Test
  void aKilledWorkerIsNoticedByTheHeartbeatTimeoutAndTheItemRestartsFromItsLastCheckpoint(
      E2eEnvironment env) throws Exception {
    String namespace = env.newNamespace("items-crash");
    WorkItemClient items = new WorkItemClient(env.client(namespace));
    Path dir = env.newDirectory("items-crash");
    Path data = lines(dir);
    Path results = dir.resolve("results.jsonl");
    WorkerProcess first = env.startWorker("items-crash-a", workerEnv(namespace, dir));

    items.schedule(
        WorkItemSpec.of(COUNT_CRASH, "line-count", state(data, results), Instant.now())
            .withHeartbeatTimeout(Duration.ofSeconds(5)));
    await(items, COUNT_CRASH, v -> v.state() == WorkItemState.Running, Duration.ofSeconds(60));
    PendingHeartbeats.await(
        env.client(namespace),
        COUNT_CRASH,
        RunCheckpoint.class,
        c -> c.stateJson() != null,
        "a saved checkpoint",
        Duration.ofSeconds(60));
    first.kill();
    env.startWorker("items-crash-b", workerEnv(namespace, dir));

    WorkItemView end = result(env.client(namespace), COUNT_CRASH);

    assertThat(states(end))
        .containsSubsequence(
            WorkItemState.Running,
            WorkItemState.Aborted,
            WorkItemState.AbortedRestart,
            WorkItemState.WaitingForStart,
            WorkItemState.Queued,
            WorkItemState.Running,
            WorkItemState.Finished);
    assertThat(end.log())
        .anyMatch(t -> t.to() == WorkItemState.Aborted && t.note().contains("no heartbeat"));
    List<JsonNode> finished = finishedCalls(results);
    assertThat(finished).hasSize(2);
    assertThat(finished.get(0).path("finalState").asText()).isEqualTo("Aborted");
    long checkpoint = finished.get(0).path("bytes").asLong();
    assertThat(checkpoint).isPositive().isLessThan(Files.size(data));
    assertCompleteAndResumedFrom(finished.get(1), data, checkpoint);
  }

  private static Map<String, String> workerEnv(String namespace, Path root) {
    return Map.of(
        "TEMPORAL_NAMESPACE", namespace,
        "JIMFLOW_WORK_ITEMS_DEMO_KINDS", "true",
        "JIMFLOW_WORK_ITEMS_ROOTS", root.toString(),
        "JIMFLOW_WORK_ITEMS_WATCH_INTERVAL", "500ms",
        "JIMFLOW_WORKER_SHUTDOWN_GRACE_PERIOD", "30s");
  }

  private static Path lines(Path dir) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < LINES; i++) {
      sb.append("identity ").append(i).append(";cn=user").append(i).append('\n');
    }
    Path data = dir.resolve("data.txt");
    Files.writeString(data, sb.toString());
    return data;
  }

  /** 500 lines a chunk and 100 ms between chunks: about 12 s of work, interruptible every chunk. */
  private static String state(Path data, Path results) {
    return JSON.createObjectNode()
        .put("path", data.toString())
        .put("chunkLines", 500)
        .put("pauseMillis", 100)
        .put("resultPath", results.toString())
        .toString();
  }

  private static void assertCompleteAndResumedFrom(JsonNode last, Path data, long resumedFrom)
      throws Exception {
    assertThat(last.path("finalState").asText()).isEqualTo("Finished");
    assertThat(last.path("instance").asInt()).isEqualTo(2);
    assertThat(last.path("resumedFrom").asLong()).isEqualTo(resumedFrom);
    assertThat(last.path("lines").asLong()).isEqualTo(LINES);
    assertThat(last.path("bytes").asLong()).isEqualTo(Files.size(data));
    long h = 0xcbf29ce484222325L;
    for (byte b : Files.readAllBytes(data)) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    assertThat(last.path("fnv1a64").asText()).isEqualTo(Long.toHexString(h));
  }

  private static List<JsonNode> finishedCalls(Path results) throws Exception {
    List<JsonNode> calls = new ArrayList<>();
    for (String line : Files.readAllLines(results)) {
      calls.add(JSON.readTree(line));
    }
    return calls;
  }

  private static List<WorkItemState> states(WorkItemView view) {
    List<WorkItemState> states = new ArrayList<>();
    for (WorkItemTransition t : view.log()) {
      if (t.from() != t.to()) {
        states.add(t.to());
      }
    }
    return states;
  }

  private static void await(
      WorkItemClient items, String guid, Predicate<WorkItemView> condition, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    WorkItemView last = null;
    while (System.nanoTime() < deadline) {
      try {
        last = items.show(guid);
        if (condition.test(last)) {
          return;
        }
      } catch (RuntimeException notYet) {
        // the workflow may not have had its first task yet
      }
      Thread.sleep(200);
    }
    throw new AssertionError("work item " + guid + " did not get there in time; last: " + last);
  }

  private static WorkItemView result(WorkflowClient client, String guid) throws Exception {
    return client.newUntypedWorkflowStub(guid).getResult(180, TimeUnit.SECONDS, WorkItemView.class);
  }
}
