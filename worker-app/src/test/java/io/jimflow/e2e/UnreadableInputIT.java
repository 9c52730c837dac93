package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.common.TaskQueues;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A start with an input of the wrong shape, sent by a plain Temporal client as {@code temporal
 * workflow start --input '"garbage"'} would, ends Failed with a message instead of running for
 * ever.
 */
@ExtendWith(TemporalDevServerExtension.class)
class UnreadableInputIT {

  @ParameterizedTest
  @CsvSource({
    "ScheduleExecution, " + TaskQueues.SCHEDULES,
    "WorkItem, " + TaskQueues.WORK_ITEMS,
    "Housekeeping, " + TaskQueues.MAINTENANCE,
    "HistoryRetention, " + TaskQueues.MAINTENANCE,
    "ClearConnectedSystem, " + TaskQueues.MAINTENANCE,
    "DeleteConnectedSystem, " + TaskQueues.MAINTENANCE,
    "GenerateExampleData, " + TaskQueues.MAINTENANCE,
    "RunRecords, " + TaskQueues.MAINTENANCE,
    "ResourceLock, " + TaskQueues.SCHEDULES
  })
  void everyWorkflowTypeFailsOnAGarbageInput(String type, String queue, E2eEnvironment env)
      throws Exception {
    env.sharedWorker();
    WorkflowStub stub =
        env.client()
            .newUntypedWorkflowStub(
                type,
                WorkflowOptions.newBuilder()
                    .setTaskQueue(queue)
                    .setWorkflowId("garbage-" + type + "-" + UUID.randomUUID())
                    .build());
    stub.start("garbage");

    // Generous for a loaded machine; unloaded it fails in well under a second.
    assertThatThrownBy(() -> stub.getResult(60, TimeUnit.SECONDS, Object.class))
        .isInstanceOf(WorkflowFailedException.class)
        .cause()
        .isInstanceOf(ApplicationFailure.class)
        .hasMessageContaining("Workflow " + type + " could not read its input")
        .hasMessageContaining("expected a JSON object for")
        .hasMessageContaining("got \"garbage\"");
    assertThat(
            env.client().fetchHistory(stub.getExecution().getWorkflowId()).getEvents().stream()
                .filter(e -> e.getEventType().name().contains("WORKFLOW_TASK_FAILED"))
                .count())
        .as("no workflow task failed on the way")
        .isZero();
  }
}
