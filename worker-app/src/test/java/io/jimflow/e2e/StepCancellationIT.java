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
import io.jimflow.schedule.StepStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowStub;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A cancel reaches a running step of a real worker through its heartbeats, within seconds. */
@ExtendWith(TemporalDevServerExtension.class)
class StepCancellationIT {

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
}
