package io.jimflow.schedule;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.common.TaskQueues;
import io.jimflow.resource.ResourceLockWorkflowImpl;
import io.jimflow.testing.FakeResourceActivities;
import io.jimflow.testing.JimflowTestEnvironment;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A step held above a threshold waits in AwaitingApproval until a person decides, or its window.
 */
class ThresholdApprovalTest {

  private static final String HELD =
      "held: the export would delete 600 of 1000 objects of Directory (60%), above the threshold"
          + " of 500 or 10%; e.g. E1, E2 and 598 more; nothing was sent and the exports stay"
          + " pending";

  private TestWorkflowEnvironment env;
  private WorkflowClient client;
  private final FakeStepActivities steps = new FakeStepActivities();
  private final List<ApprovalDecision> received = new CopyOnWriteArrayList<>();
  private final RecordingNotifications notifications = new RecordingNotifications();

  @BeforeEach
  void startEnvironment() {
    env = JimflowTestEnvironment.newEnvironment();
    Worker worker = JimflowTestEnvironment.newWorker(env, TaskQueues.SCHEDULES);
    worker.registerWorkflowImplementationTypes(
        ScheduleExecutionWorkflowImpl.class,
        ResourceLockWorkflowImpl.class,
        NotificationWorkflowImpl.class);
    worker.registerActivitiesImplementations(
        steps, new FakeResourceActivities(), new RecordingExecutionRecords(), notifications);
    env.start();
    client = env.getWorkflowClient();
    // Held until decided; approved it completes, rejected it ends as the run would.
    steps.on(
        "Export",
        (request, context) -> {
          ApprovalDecision decision = request.approval();
          if (decision == null) {
            return new StepRunResult(
                StepStatus.AwaitingApproval,
                1,
                HELD,
                Map.of(Approvals.WINDOW_STAT, 3_600L),
                "rr-1");
          }
          received.add(decision);
          return new StepRunResult(
              decision.approve() ? StepStatus.Complete : StepStatus.FailedWithError,
              1,
              decision.describe(),
              Map.of(),
              "rr-1");
        });
  }

  @AfterEach
  void stopEnvironment() {
    env.close();
  }

  private WorkflowStub start(String id) {
    WorkflowStub stub =
        client.newUntypedWorkflowStub(
            ScheduleExecutionWorkflow.TYPE,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.SCHEDULES)
                .setWorkflowId(id)
                .build());
    stub.start(
        aSchedule(id)
            .named(id)
            .with(
                aStep(0, "Export").runProfile("Directory", "Export"),
                aStep(1, "After").runProfile("HR", "Delta Import"))
            .input());
    return stub;
  }

  private StepOutcome awaitingExport(WorkflowStub stub) throws InterruptedException {
    return ResourceExclusionTest.awaitProgress(
            stub, p -> p.steps().get(0).status() == StepStatus.AwaitingApproval)
        .steps()
        .get(0);
  }

  private static Boolean awaitingAttribute(WorkflowStub stub) {
    return stub.describe()
        .getTypedSearchAttributes()
        .get(JimflowSearchAttributes.AWAITING_APPROVAL);
  }

  @Test
  void aHeldStepWaitsVisiblyAndAnApprovalLetsItGoOnWithWhoAndWhyInItsRecord()
      throws InterruptedException {
    WorkflowStub stub = start("approve");

    StepOutcome waiting = awaitingExport(stub);
    assertThat(waiting.message()).isEqualTo(HELD);
    notifications.await(1);
    assertThat(awaitingAttribute(stub)).isTrue();
    assertThat(steps.started).doesNotContain("After");

    // Refused at once, and nothing changes.
    assertThatThrownBy(
            () ->
                stub.update(
                    ApprovalDecision.UPDATE,
                    String.class,
                    new ApprovalDecision("Nope", true, "ada", "looks right")))
        .isInstanceOf(WorkflowUpdateException.class)
        .hasStackTraceContaining("no step named 'Nope' awaits approval (awaiting: Export)");
    assertThatThrownBy(
            () ->
                stub.update(
                    ApprovalDecision.UPDATE,
                    String.class,
                    new ApprovalDecision("Export", true, "ada", " ")))
        .isInstanceOf(WorkflowUpdateException.class)
        .hasStackTraceContaining("a reason must be given");
    assertThatThrownBy(
            () ->
                stub.update(
                    ApprovalDecision.UPDATE,
                    String.class,
                    new ApprovalDecision("Export", true, "ada\nroot", "x".repeat(2_000))))
        .isInstanceOf(WorkflowUpdateException.class);

    String accepted =
        stub.update(
            ApprovalDecision.UPDATE,
            String.class,
            new ApprovalDecision("Export", true, "ada", "the new titles are right"));
    assertThat(accepted).isEqualTo("step 'Export' approved by ada: the new titles are right");

    ExecutionResult result = stub.getResult(ExecutionResult.class);
    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    // The hold was posted once, as it began, naming the execution, the step and what holds it.
    assertThat(notifications.sent())
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.event()).isEqualTo(Notification.Event.AwaitingApproval);
              assertThat(n.scheduleId()).isEqualTo("approve");
              assertThat(n.executionId()).isEqualTo("approve");
              assertThat(n.steps()).containsExactly("Export");
              assertThat(n.message()).isEqualTo(HELD);
              assertThat(n.status()).isNull();
            });
    assertThat(client.newUntypedWorkflowStub("approve/approval-0-1").describe()).isNotNull();
    assertThat(result.steps().get(0).message())
        .isEqualTo("approved by ada: the new titles are right");
    assertThat(result.steps().get(1).status()).isEqualTo(StepStatus.Complete);
    assertThat(received).extracting(ApprovalDecision::by).containsExactly("ada");
    assertThat(awaitingAttribute(stub)).isFalse();
  }

  @Test
  void aRejectedStepSendsNothingAndStopsItsExecution() throws InterruptedException {
    WorkflowStub stub = start("reject");
    awaitingExport(stub);

    stub.signal(
        ApprovalDecision.SIGNAL, new ApprovalDecision("Export", false, "bob", "bad mapping"));

    assertThatThrownBy(() -> stub.getResult(ExecutionResult.class))
        .isInstanceOf(WorkflowFailedException.class);
    ExecutionProgress progress = stub.query("progress", ExecutionProgress.class);
    assertThat(progress.steps().get(0).status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(progress.steps().get(0).message()).isEqualTo("rejected by bob: bad mapping");
    assertThat(progress.steps().get(1).status()).isEqualTo(StepStatus.Skipped);
    assertThat(steps.started).doesNotContain("After");
  }

  @Test
  void noDecisionWithinTheWindowRejectsTheStep() throws InterruptedException {
    WorkflowStub stub = start("timeout");
    awaitingExport(stub);

    env.sleep(Duration.ofMinutes(61));

    assertThatThrownBy(() -> stub.getResult(ExecutionResult.class))
        .isInstanceOf(WorkflowFailedException.class);
    assertThat(received)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.approve()).isFalse();
              assertThat(d.by()).isEqualTo("jimflow");
              assertThat(d.reason()).isEqualTo("no decision within PT1H");
            });
  }
}
