package io.jimflow.e2e;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import io.jimflow.testing.ScheduleBuilders.StepBuilder;
import io.jimflow.worker.dev.DevServer;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The design's core promise, with real processes: a worker killed mid-step loses nothing, the step
 * resumes on another worker from its checkpoint, and a server killed and restarted carries on.
 */
@ExtendWith(TemporalDevServerExtension.class)
class CrashRecoveryIT {

  @Test
  void aStepResumesFromItsCheckpointOnAnotherWorkerAfterSigkill(E2eEnvironment env)
      throws Exception {
    // A namespace of its own: no other test's worker may pick the step up.
    String namespace = env.newNamespace("crash");
    WorkflowClient client = env.client(namespace);
    WorkerProcess workerA = env.startWorker("crash-a", Map.of("TEMPORAL_NAMESPACE", namespace));
    ScheduleDefinition definition =
        schedule(
            "crash-recovery",
            step(0, "prepare", "count.sh", "2", "0.05"),
            step(1, "long count", "count.sh", "40", "0.25"),
            step(2, "after", "count.sh", "2", "0.05"));
    String id = "crash-recovery/" + UUID.randomUUID();
    ScheduleExecutionWorkflow execution = start(client, id, definition);

    StepHeartbeats.awaitProcessed(client, id, 8, Duration.ofSeconds(60));
    workerA.kill();
    long checkpointAtKill = StepHeartbeats.processed(client, id);

    WorkerProcess workerB = env.startWorker("crash-b", Map.of("TEMPORAL_NAMESPACE", namespace));
    ExecutionResult result =
        WorkflowStub.fromTyped(execution).getResult(120, TimeUnit.SECONDS, ExecutionResult.class);

    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(result.steps())
        .extracting(StepOutcome::name)
        .containsExactly("prepare", "long count", "after");
    StepOutcome longCount = result.steps().get(1);
    assertThat(longCount.status()).isEqualTo(StepStatus.Complete);
    assertThat(longCount.attempts()).isEqualTo(2);
    // The second attempt started from the checkpoint the killed one heartbeated, not from zero.
    long resumedFrom =
        Long.parseLong(longCount.message().replaceAll("(?s).*counting from (\\d+) to 40.*", "$1"));
    assertThat(resumedFrom).isPositive().isGreaterThanOrEqualTo(checkpointAtKill - 1);
    assertThat(longCount.stats()).containsEntry("processed", 40L);
    workerB.terminate(Duration.ofSeconds(30));
  }

  @Test
  void anExecutionCompletesWhenTheServerIsKilledAndRestartedOnTheSameDatabase(E2eEnvironment env)
      throws Exception {
    // Its own server: stopping the shared one would break the other tests.
    DevServer.Options options =
        new DevServer.Options(
            env.server().options().cli(),
            "127.0.0.1",
            ReservedPorts.reserve(),
            ReservedPorts.reserve(),
            env.newDirectory("restart").resolve("temporal.db"),
            env.newDirectory("restart-log").resolve("temporal-server.log"),
            "default",
            List.of(),
            Duration.ofSeconds(90));
    DevServer server = DevServer.start(options);
    WorkerProcess worker = null;
    try {
      worker = env.startWorker("restart", Map.of("TEMPORAL_ADDRESS", server.target()));
      ScheduleDefinition definition =
          schedule(
              "server-restart",
              step(0, "count", "count.sh", "30", "0.2"),
              step(1, "after", "count.sh", "1", "0"));
      String id = "server-restart/" + UUID.randomUUID();
      ScheduleExecutionWorkflow execution = start(client(server), id, definition);
      StepHeartbeats.awaitProcessed(client(server), id, 3, Duration.ofSeconds(60));

      // SIGKILL, no orderly shutdown: the server keeps only what it had committed to its file.
      server.kill();
      awaitPortClosed(options.port(), Duration.ofSeconds(60));
      server = DevServer.start(options);

      ExecutionResult result =
          WorkflowStub.fromTyped(
                  client(server).newWorkflowStub(ScheduleExecutionWorkflow.class, id))
              .getResult(180, TimeUnit.SECONDS, ExecutionResult.class);
      assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
      assertThat(result.steps()).extracting(StepOutcome::status).containsOnly(StepStatus.Complete);
    } finally {
      if (worker != null) {
        worker.kill();
      }
      server.close();
    }
  }

  private static WorkflowClient client(DevServer server) {
    return WorkflowClient.newInstance(
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(server.target()).build()),
        WorkflowClientOptions.newBuilder().setNamespace(server.namespace()).build());
  }

  private static ScheduleExecutionWorkflow start(
      WorkflowClient client, String id, ScheduleDefinition definition) {
    return ManualExecutions.start(client, id, definition, ManualExecutions.TESTER);
  }

  private static ScheduleDefinition schedule(String id, StepBuilder... steps) {
    return aSchedule(id).named(id).with(steps).definition();
  }

  private static StepBuilder step(int index, String name, String program, String... args) {
    return aStep(index, name)
        .executable(program, args)
        .attemptsOrDefault(null)
        // Short, so a killed worker's attempt is noticed within seconds.
        .heartbeatTimeout(Duration.ofSeconds(3));
  }

  /** The stopped server's port: its restart binds the same one. */
  private static void awaitPortClosed(int port, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (DevServer.isListening("127.0.0.1", port)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "the stopped dev server still listened on " + port + " after " + timeout);
      }
      Thread.sleep(100);
    }
  }
}
