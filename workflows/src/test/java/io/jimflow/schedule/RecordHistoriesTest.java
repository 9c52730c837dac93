package io.jimflow.schedule;

import static io.jimflow.schedule.FakeStepActivities.fails;
import static io.jimflow.schedule.FakeStepActivities.runsUntil;
import static io.jimflow.schedule.Schedules.schedule;
import static io.jimflow.schedule.Schedules.step;

import io.jimflow.common.TaskQueues;
import io.jimflow.resource.ResourceLockWorkflowImpl;
import io.jimflow.schedule.ScheduleDefinition.FailurePolicy;
import io.jimflow.schedule.Schedules.ScheduleBuilder;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Records the example executions that {@link ScheduleExecutionReplayTest} replays. Run it only
 * after a deliberate, versioned change to the workflow (new histories must not replace the old ones
 * that open executions still depend on; add them next to the old):
 *
 * <pre>
 * ./mvnw -B -o -pl workflows -am test -Dtest=RecordHistoriesTest -Djimflow.recordHistories=true
 *     -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
@EnabledIfSystemProperty(named = "jimflow.recordHistories", matches = "true")
class RecordHistoriesTest {

  private static final Path HISTORIES = Path.of("src", "test", "resources", "histories");

  private TestWorkflowEnvironment env;
  private WorkflowClient client;
  private final FakeStepActivities steps = new FakeStepActivities();

  @BeforeEach
  void startEnvironment() {
    env = TestWorkflowEnvironment.newInstance();
    ScheduleExecutionWorkflowTest.registerSearchAttributes(env);
    Worker worker = env.newWorker(TaskQueues.SCHEDULES);
    worker.registerWorkflowImplementationTypes(
        ScheduleExecutionWorkflowImpl.class, ResourceLockWorkflowImpl.class);
    worker.registerActivitiesImplementations(steps, new FakeResourceActivities());
    env.start();
    client = env.getWorkflowClient();
  }

  @AfterEach
  void stopEnvironment() {
    env.close();
  }

  @Test
  void recordExampleExecutions() throws Exception {
    Files.createDirectories(HISTORIES);
    steps
        .on("export AD", fails("target unreachable"))
        .on("export LDAP", fails("bind refused"))
        .on(
            "sync",
            (r, c) -> {
              if (c.getInfo().getAttempt() == 1) {
                throw ApplicationFailure.newFailure("deadlock, retry", StepFailures.STEP_FAILED);
              }
              return FakeStepActivities.complete(c, "synced");
            });

    record(
        "complete",
        schedule("nightly-hr-sync")
            .named("Nightly HR Sync")
            .with(
                step(0, "import HR").runProfile("HR", "Full Import"),
                step(1, "sync").attempts(3),
                step(2, "export AD-ok"),
                step(2, "export LDAP-ok"),
                step(3, "confirm AD"),
                step(3, "confirm LDAP")));
    record(
        "failed-stop",
        schedule("stops")
            .with(
                step(0, "import"), step(1, "export AD"), step(1, "export ok"), step(2, "confirm")));
    record(
        "tolerated",
        schedule("tolerates")
            .onStepFailure(FailurePolicy.CONTINUE)
            .with(step(0, "export LDAP"), step(1, "after")));

    steps.on("long", runsUntil(new CountDownLatch(1), Duration.ofSeconds(60)));
    WorkflowStub cancelled =
        start(
            "cancelled",
            schedule("cancels")
                .with(
                    step(0, "first"),
                    step(1, "long").runProfile("AD", "Export"),
                    step(1, "long-sibling"),
                    step(2, "never")));
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!steps.started.contains("long") && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    cancelled.cancel();
    try {
      cancelled.getResult(ExecutionResult.class);
    } catch (RuntimeException expected) {
      // The cancelled execution ends Canceled.
    }
    write("cancelled");
  }

  private void record(String name, ScheduleBuilder schedule) throws Exception {
    WorkflowStub stub = start(name, schedule);
    try {
      stub.getResult(ExecutionResult.class);
    } catch (RuntimeException failedExecution) {
      // Failed executions are examples too.
    }
    write(name);
  }

  private WorkflowStub start(String name, ScheduleBuilder schedule) {
    WorkflowStub stub =
        client.newUntypedWorkflowStub(
            ScheduleExecutionWorkflow.TYPE,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.SCHEDULES)
                .setWorkflowId("history-" + name)
                .build());
    stub.start(schedule.input());
    return stub;
  }

  private void write(String name) throws Exception {
    Files.writeString(
        HISTORIES.resolve(name + ".json"), client.fetchHistory("history-" + name).toJson(true));
  }
}
