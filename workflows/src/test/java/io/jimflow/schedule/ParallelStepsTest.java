package io.jimflow.schedule;

import static io.jimflow.schedule.FakeStepActivities.sleeps;
import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.common.JimflowDataConverter;
import io.jimflow.common.TaskQueues;
import io.jimflow.resource.ResourceLockWorkflowImpl;
import io.jimflow.testing.FakeResourceActivities;
import io.jimflow.testing.JimflowTestEnvironment;
import io.jimflow.testing.ScheduleBuilders.ScheduleBuilder;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A schedule execution's {@code maxParallelSteps} comes from its input, which a Temporal client may
 * forge: the worker's maximum (a registration constant) bounds it, and a worker configured
 * otherwise replays the execution as it ran.
 */
class ParallelStepsTest {

  private static final int WORKER_MAXIMUM = 3;

  private TestWorkflowEnvironment env;
  private WorkflowClient client;
  private final FakeStepActivities steps = new FakeStepActivities();

  @BeforeEach
  void startEnvironment() {
    env = JimflowTestEnvironment.newEnvironment();
    Worker worker = JimflowTestEnvironment.newWorker(env, TaskQueues.SCHEDULES);
    worker.registerWorkflowImplementationFactory(
        ScheduleExecutionWorkflow.class,
        () -> new ScheduleExecutionWorkflowImpl(WORKER_MAXIMUM),
        JimflowDataConverter.WORKFLOW_OPTIONS);
    worker.registerWorkflowImplementationTypes(
        JimflowDataConverter.WORKFLOW_OPTIONS,
        ResourceLockWorkflowImpl.class,
        NotificationWorkflowImpl.class);
    worker.registerActivitiesImplementations(
        steps,
        new RecordingExecutionRecords(),
        new FakeResourceActivities(),
        new RecordingNotifications());
    env.start();
    client = env.getWorkflowClient();
  }

  @AfterEach
  void stopEnvironment() {
    env.close();
  }

  @ParameterizedTest(name = "maxParallelSteps {0} on a worker allowing 3 -> at most {1} at once")
  @CsvSource({"1000000, 3", "2, 2"})
  void aGroupRunsAtMostTheWorkersMaximumOfStepsAtOnce(int asked, int atMost) throws Exception {
    ScheduleBuilder schedule = aSchedule("wide").maxParallelSteps(asked);
    for (int i = 0; i < 9; i++) {
      steps.on("step-" + i, sleeps(Duration.ofMillis(200)));
      schedule.with(aStep(0, "step-" + i));
    }
    WorkflowStub stub =
        client.newUntypedWorkflowStub(
            ScheduleExecutionWorkflow.TYPE,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.SCHEDULES)
                .setWorkflowId("wide-" + asked)
                .build());
    stub.start(schedule.input());

    ExecutionResult result = stub.getResult(ExecutionResult.class);

    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(result.steps()).hasSize(9);
    assertThat(steps.maxConcurrent.get()).isLessThanOrEqualTo(atMost).isGreaterThan(1);
    // A worker with the default maximum (500) replays it: the maximum used is in the history.
    JimflowTestEnvironment.replay(
        client.fetchHistory("wide-" + asked), ScheduleExecutionWorkflowImpl.class);
  }

  @ParameterizedTest(name = "worker maximum {0} is refused")
  @CsvSource({"0", "-5"})
  void aWorkerMaximumBelowOneIsRefused(int maximum) {
    // Checked where the worker's settings are read, before any workflow runs.
    assertThatThrownBy(() -> new ParallelSteps(maximum))
        .hasMessage("jimflow.steps.maxima.parallel-steps must be 1 or more, got " + maximum);
  }
}
