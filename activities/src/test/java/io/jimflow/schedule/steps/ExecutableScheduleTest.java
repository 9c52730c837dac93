package io.jimflow.schedule.steps;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.common.TaskQueues;
import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.RecordingExecutionRecords;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.ScheduleExecutionWorkflowImpl;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.activities.StepActivitiesImpl;
import io.jimflow.secrets.activities.Secrets;
import io.jimflow.testing.JimflowTestEnvironment;
import io.jimflow.testing.ScheduleBuilders.StepBuilder;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Schedules of Executable steps run by the real step activities and real programs. */
class ExecutableScheduleTest {

  @TempDir Path root;
  private TestWorkflowEnvironment env;

  @BeforeEach
  void startEnvironment() {
    env = JimflowTestEnvironment.newEnvironment();
  }

  @AfterEach
  void stopEnvironment() {
    env.close();
  }

  @Test
  void aRetriedProgramResumesFromTheCheckpointItsFailedAttemptRecorded() {
    // Counts to 6; the first attempt dies after checkpointing 3.
    Scripts.write(
        root,
        "flaky-count.sh",
        """
        i=${JIMFLOW_CHECKPOINT:-0}
        echo "attempt $JIMFLOW_ATTEMPT starts at $i"
        while [ "$i" -lt 6 ]; do
          i=$((i + 1))
          echo "::progress $i/6"
          echo "::checkpoint $i"
          if [ "$JIMFLOW_ATTEMPT" = 1 ] && [ "$i" = 3 ]; then echo "crash" >&2; exit 9; fi
        done""");
    startWorker(root);

    ExecutionResult result = run(definition(executableStep(0, "count", "flaky-count.sh", 3)));

    StepOutcome count = result.steps().get(0);
    assertThat(count.status()).isEqualTo(StepStatus.Complete);
    assertThat(count.attempts()).isEqualTo(2);
    assertThat(count.message()).contains("attempt 2 starts at 3");
    assertThat(count.stats()).containsEntry("processed", 6L);
  }

  @Test
  void theShippedScriptsRunSequentialAndParallelGroupsWithAToleratedFailure() {
    startWorker(Scripts.shippedRoot());
    StepBuilder tolerated =
        aStep(1, "fail on purpose")
            .executable("fail.sh", "4", "no target today")
            .continueOnFailure(true)
            .timeout(Duration.ofMinutes(1))
            .heartbeatTimeout(null);

    ExecutionResult result =
        run(
            definition(
                executableStep(0, "count first", "count.sh", 1, "3", "0.05"),
                executableStep(1, "count alongside", "count.sh", 1, "2", "0.05"),
                tolerated,
                executableStep(2, "count last", "count.sh", 1, "1", "0.05")));

    assertThat(result.status()).isEqualTo(ExecutionStatus.CompleteWithError);
    assertThat(result.steps())
        .extracting(StepOutcome::name, StepOutcome::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("count first", StepStatus.Complete),
            org.assertj.core.groups.Tuple.tuple("count alongside", StepStatus.Complete),
            org.assertj.core.groups.Tuple.tuple("fail on purpose", StepStatus.FailedWithError),
            org.assertj.core.groups.Tuple.tuple("count last", StepStatus.Complete));
    assertThat(result.steps().get(2).message())
        .contains("exited with code 4")
        .contains("no target today");
    assertThat(result.message())
        .contains(
            "'fail on purpose' FailedWithError ('fail.sh' exited with code 4: stderr: no target today)");
  }

  @Test
  void theProgressOfARetriedProgramShowsItsSecondAttempt() throws Exception {
    Path release = root.resolve("release");
    Scripts.write(
        root,
        "second-try.sh",
        "if [ \"$JIMFLOW_ATTEMPT\" = 1 ]; then echo 'first try fails' >&2; exit 1; fi\n"
            + "while [ ! -e "
            + release
            + " ]; do sleep 0.1; done; echo 'second try done'");
    startWorker(root);
    ScheduleDefinition definition = definition(executableStep(0, "retried", "second-try.sh", 3));
    ScheduleExecutionWorkflow workflow = stub(definition);
    WorkflowClient.start(
        workflow::run,
        new ScheduleExecutionInput(
            definition, new Initiator(InitiatorType.User, "u", "User"), TriggerKind.Manual, null));

    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    StepOutcome retried = workflow.progress().steps().get(0);
    while (retried.attempts() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(100);
      retried = workflow.progress().steps().get(0);
    }
    assertThat(retried.status()).isEqualTo(StepStatus.Running);
    assertThat(retried.attempts()).isEqualTo(2);

    Files.createFile(release);
    ExecutionResult result = WorkflowStub.fromTyped(workflow).getResult(ExecutionResult.class);
    assertThat(result.steps().get(0).attempts()).isEqualTo(2);
    assertThat(result.steps().get(0).message()).contains("second try done");
  }

  @Test
  void aStepAskingForMoreTimeAndAttemptsThanTheWorkerAllowsIsClampedAndItsMessageSaysSo() {
    Scripts.write(root, "hang.sh", "echo \"attempt $JIMFLOW_ATTEMPT\"\nsleep 60");
    startWorker(root, new StepMaxima(Duration.ofSeconds(2), 2, null, null, null));
    StepBuilder greedy =
        aStep(0, "greedy")
            .executable("hang.sh")
            .timeout(Duration.ofDays(7))
            .attempts(1000)
            .continueOnFailure(true)
            .heartbeatTimeout(Duration.ofSeconds(30));

    ExecutionResult result = run(definition(greedy));

    StepOutcome step = result.steps().get(0);
    assertThat(step.status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(step.attempts()).isEqualTo(3);
    assertThat(step.message())
        .contains("Step 'greedy' refused attempt 3: this worker runs a step at most 2 times")
        .contains("(timeout 7d clamped to the worker's maximum 2s)");
  }

  private void startWorker(Path executablesRoot) {
    startWorker(executablesRoot, StepMaxima.DEFAULT);
  }

  private void startWorker(Path executablesRoot, StepMaxima maxima) {
    Worker worker = JimflowTestEnvironment.newWorker(env, TaskQueues.SCHEDULES);
    worker.registerWorkflowImplementationTypes(ScheduleExecutionWorkflowImpl.class);
    worker.registerActivitiesImplementations(
        new StepActivitiesImpl(
            new UnconfiguredRunProfileExecutor(),
            new ExecutableRunner(executablesRoot, ProgramAllowList.anyBelowRoot(), Set.of()),
            SqlScriptRunner.unconfigured("no SQL connections here"),
            Secrets.none(),
            JimflowMetrics.none(),
            maxima),
        new RecordingExecutionRecords());
    env.start();
  }

  private ScheduleExecutionWorkflow stub(ScheduleDefinition definition) {
    return env.getWorkflowClient()
        .newWorkflowStub(
            ScheduleExecutionWorkflow.class,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.SCHEDULES)
                .setWorkflowId(definition.id())
                .build());
  }

  private ExecutionResult run(ScheduleDefinition definition) {
    ScheduleExecutionWorkflow workflow = stub(definition);
    return workflow.run(
        new ScheduleExecutionInput(
            definition, new Initiator(InitiatorType.User, "u", "User"), TriggerKind.Manual, null));
  }

  private static ScheduleDefinition definition(StepBuilder... steps) {
    return aSchedule("scripts").named("Scripts").with(steps).definition();
  }

  private static StepBuilder executableStep(
      int index, String name, String path, int attempts, String... args) {
    return aStep(index, name)
        .executable(path, args)
        .timeout(Duration.ofMinutes(1))
        .attempts(attempts)
        .heartbeatTimeout(Duration.ofSeconds(5));
  }
}
