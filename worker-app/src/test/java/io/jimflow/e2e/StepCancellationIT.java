package io.jimflow.e2e;

import static io.jimflow.e2e.ManualExecutions.TESTER;
import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.StepHeartbeat;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.CanceledFailure;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A cancel reaches a running step of a real worker through its heartbeats, within seconds; one that
 * cannot reach a dead worker still ends the step and the execution Cancelled, never re-run.
 */
@ExtendWith(TemporalDevServerExtension.class)
class StepCancellationIT {

  private static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(20);

  @Test
  void aCancelStopsARunningStepWithTheDefaultHeartbeatTimeoutWithinSeconds(E2eEnvironment env)
      throws Exception {
    env.sharedWorker();
    WorkflowClient client = env.client();
    // No heartbeatTimeout: the default 30 s, whose SDK throttle alone would hold a cancel for 24 s.
    ScheduleDefinition definition =
        aSchedule("cancel-latency")
            .named("Cancel latency")
            .with(aStep(0, "long count").withStepDefaults().executable("count.sh", "600", "1"))
            .definition();
    String id = "cancel-latency/" + UUID.randomUUID();
    WorkflowStub stub =
        WorkflowStub.fromTyped(ManualExecutions.start(client, id, definition, TESTER));
    // Once the first heartbeat is in, the next one waits for the throttle: that is what a cancel
    // meets.
    PendingHeartbeats.await(
        client, id, StepHeartbeat.class, h -> true, "a first heartbeat", Duration.ofSeconds(60));

    long cancelledAt = System.nanoTime();
    stub.cancel();
    WorkflowFailedException failure =
        catchThrowableOfType(
            () -> stub.getResult(60, TimeUnit.SECONDS, Object.class),
            WorkflowFailedException.class);
    Duration stoppedAfter = Duration.ofNanos(System.nanoTime() - cancelledAt);

    assertThat(failure).isNotNull();
    ExecutionProgress progress = stub.query("progress", ExecutionProgress.class);
    assertThat(progress.status()).isEqualTo(ExecutionStatus.Cancelled);
    assertThat(progress.steps().get(0).status()).isEqualTo(StepStatus.Cancelled);
    // Generous for a busy machine, yet well below the 24 s of the SDK's default throttle.
    assertThat(stoppedAfter).isLessThan(Duration.ofSeconds(15));
  }

  @Test
  void aCancelThatCannotReachAKilledWorkerEndsTheStepCancelledAndNeverReRunsIt(E2eEnvironment env)
      throws Exception {
    // A namespace of its own: worker A runs the step and is killed; worker B, alive throughout the
    // cancel, runs the execution on and would take any retry of the step.
    String namespace = env.newNamespace("dead-cancel");
    WorkflowClient client = env.client(namespace);
    WorkerProcess workerA =
        env.startWorker("dead-cancel-a", Map.of("TEMPORAL_NAMESPACE", namespace));
    ScheduleDefinition definition =
        aSchedule("dead-cancel")
            .named("Cancel with a dead worker")
            .with(
                aStep(0, "long count")
                    .executable("count.sh", "600", "0.25")
                    .attempts(3)
                    // Long enough that the cancel is recorded before it passes: the execution's
                    // next workflow task first waits out the killed worker's sticky queue (5 s).
                    .heartbeatTimeout(HEARTBEAT_TIMEOUT),
                aStep(1, "after").executable("count.sh", "2", "0.05"))
            .definition();
    String id = "dead-cancel/" + UUID.randomUUID();
    WorkflowStub stub =
        WorkflowStub.fromTyped(ManualExecutions.start(client, id, definition, TESTER));
    PendingHeartbeats.await(
        client, id, StepHeartbeat.class, h -> true, "a first heartbeat", Duration.ofSeconds(60));
    long seen = PendingHeartbeats.of(client, id, StepHeartbeat.class).get(0).processed();
    WorkerProcess workerB =
        env.startWorker("dead-cancel-b", Map.of("TEMPORAL_NAMESPACE", namespace));
    // Kill right after a heartbeat reached the server, so its timeout is a whole HEARTBEAT_TIMEOUT
    // away and the step cannot be timed out (and retried on worker B) before the cancel is in.
    PendingHeartbeats.await(
        client,
        id,
        StepHeartbeat.class,
        h -> h.processed() > seen,
        "a heartbeat after " + seen,
        Duration.ofSeconds(60));

    workerA.kill();
    stub.cancel();
    WorkflowFailedException failure =
        catchThrowableOfType(
            () -> stub.getResult(120, TimeUnit.SECONDS, Object.class),
            WorkflowFailedException.class);

    assertThat(failure).isNotNull();
    assertThat(failure.getCause()).isInstanceOf(CanceledFailure.class);
    ExecutionProgress progress = stub.query("progress", ExecutionProgress.class);
    assertThat(progress.status()).isEqualTo(ExecutionStatus.Cancelled);
    StepOutcome step = progress.steps().get(0);
    assertThat(step.status()).isEqualTo(StepStatus.Cancelled);
    assertThat(step.message()).contains("no heartbeat within " + HEARTBEAT_TIMEOUT);
    assertThat(step.attempts()).as("never re-run").isEqualTo(1);
    assertThat(progress.steps().get(1).status()).isEqualTo(StepStatus.Skipped);
    workerB.terminate(Duration.ofSeconds(30));
  }
}
