package io.jimflow.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.testing.JimflowTestEnvironment;
import io.jimflow.workitem.WorkItemInput;
import io.jimflow.workitem.WorkItemSpec;
import io.jimflow.workitem.WorkItemView;
import io.jimflow.workitem.WorkItemWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every jimflow workflow type fails at once on an input it cannot read, and says why. */
class UnreadablePayloadsTest {

  private static final String QUEUE = "unreadable-payloads";

  private TestWorkflowEnvironment env;
  private WorkflowClient client;

  @BeforeEach
  void setUp() {
    env =
        JimflowTestEnvironment.newEnvironment(
            WorkflowClientOptions.newBuilder()
                .setDataConverter(JimflowDataConverter.create())
                .build());
    JimflowTestEnvironment.registerEveryWorkflow(JimflowTestEnvironment.newWorker(env, QUEUE));
    env.start();
    client = env.getWorkflowClient();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  @ParameterizedTest
  @CsvSource({
    "ScheduleExecution, ScheduleExecutionInput",
    "WorkItem, WorkItemInput",
    "Housekeeping, HousekeepingInput",
    "HistoryRetention, HistoryRetentionInput",
    "ClearConnectedSystem, SystemMaintenanceInput",
    "DeleteConnectedSystem, SystemMaintenanceInput",
    "GenerateExampleData, DataGenerationInput",
    "RunRecords, RunRecordsQuestion",
    "ResourceLock, ResourceLockState"
  })
  void aStartWithAnUnreadableInputFailsTheExecutionNamingTypeExpectationAndInput(
      String workflowType, String inputType) {
    WorkflowStub stub =
        client.newUntypedWorkflowStub(
            workflowType,
            WorkflowOptions.newBuilder()
                .setTaskQueue(QUEUE)
                .setWorkflowId("garbage-" + workflowType)
                .setWorkflowRunTimeout(Duration.ofHours(1))
                .build());
    stub.start("garbage");

    assertThatThrownBy(() -> stub.getResult(Object.class))
        .isInstanceOf(WorkflowFailedException.class)
        .cause()
        .isInstanceOf(ApplicationFailure.class)
        .hasMessageContaining("Workflow " + workflowType + " could not read its input")
        .hasMessageContaining("expected a JSON object for " + inputType)
        .hasMessageContaining("got \"garbage\"");
  }

  @Test
  void anUnreadableUpdateIsRejectedAndTheItemGoesOn() {
    WorkItemWorkflow item = startAWaitingWorkItem("item-1");
    WorkflowStub stub = WorkflowStub.fromTyped(item);

    assertThatThrownBy(() -> stub.update("changeStartTime", WorkItemView.class, "garbage"))
        .isInstanceOf(WorkflowUpdateException.class)
        .cause()
        .hasMessageContaining("expected a JSON object for StartTimeChange")
        .hasMessageContaining("got \"garbage\"");
    assertThat(item.show().guid()).isEqualTo("item-1");
    assertThat(client.fetchHistory("item-1").getLastEvent().getEventType().name())
        .doesNotContain("FAILED");
  }

  @Test
  void anUnreadableSignalIsDroppedAndTheItemGoesOn() {
    WorkItemWorkflow item = startAWaitingWorkItem("item-2");

    WorkflowStub.fromTyped(item).signal("shutdownRequested", "garbage");

    assertThat(item.show().guid()).isEqualTo("item-2");
    assertThat(client.fetchHistory("item-2").getLastEvent().getEventType().name())
        .doesNotContain("FAILED");
  }

  private WorkItemWorkflow startAWaitingWorkItem(String guid) {
    WorkItemWorkflow item =
        client.newWorkflowStub(
            WorkItemWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId(guid).build());
    WorkItemSpec spec =
        WorkItemSpec.of(guid, "line-count", "{}", Instant.now().plus(Duration.ofDays(1)));
    WorkflowClient.start(item::run, WorkItemInput.first(spec));
    return item;
  }
}
