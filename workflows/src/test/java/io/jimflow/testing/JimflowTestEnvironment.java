package io.jimflow.testing;

import io.jimflow.common.JimflowDataConverter;
import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.registration.WorkerRegistration;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerOptions;
import java.util.List;
import java.util.Locale;

/**
 * Temporal's in-memory, time-skipping test server set up as jimflow's servers are: every jimflow
 * search attribute registered with its type, and workers whose deadlock detector stays on.
 *
 * <pre>{@code
 * TestWorkflowEnvironment env = JimflowTestEnvironment.newEnvironment();
 * Worker worker = JimflowTestEnvironment.newWorker(env, TaskQueues.SCHEDULES);
 * worker.registerWorkflowImplementationTypes(ScheduleExecutionWorkflowImpl.class);
 * env.start();
 * }</pre>
 */
public final class JimflowTestEnvironment {

  /**
   * How long workflow code may run without yielding before the SDK reports a deadlock: the SDK's 1
   * s would flag correct code on a loaded 2-core machine; code that blocks (a sleep, I/O, a lock)
   * still fails the test.
   */
  public static final long DEADLOCK_DETECTION_MILLIS = 10_000;

  /** Every workflow implementation a jimflow worker registers. */
  public static final List<Class<?>> WORKFLOW_IMPLEMENTATIONS = WorkerRegistration.allWorkflows();

  private JimflowTestEnvironment() {}

  /**
   * A new time-skipping environment with jimflow's search attributes; start it after adding
   * workers.
   */
  public static TestWorkflowEnvironment newEnvironment() {
    TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance();
    registerSearchAttributes(env);
    return env;
  }

  /**
   * A new time-skipping environment whose client uses {@code clientOptions} (jimflow's data
   * converter, say), with jimflow's search attributes.
   */
  public static TestWorkflowEnvironment newEnvironment(WorkflowClientOptions clientOptions) {
    TestWorkflowEnvironment env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder().setWorkflowClientOptions(clientOptions).build());
    registerSearchAttributes(env);
    return env;
  }

  /**
   * Registers every jimflow workflow on {@code worker} as a jimflow worker does, with {@link
   * JimflowDataConverter#WORKFLOW_OPTIONS}.
   */
  public static void registerEveryWorkflow(Worker worker) {
    worker.registerWorkflowImplementationTypes(
        JimflowDataConverter.WORKFLOW_OPTIONS, WORKFLOW_IMPLEMENTATIONS.toArray(Class<?>[]::new));
  }

  /**
   * Replays {@code history} against the current code of {@code workflows}, failing on any
   * nondeterminism. Unlike {@code WorkflowReplayer}'s own worker, this one has the deadlock
   * detector at {@link #DEADLOCK_DETECTION_MILLIS}, so a cold first replay on a busy machine is not
   * taken for a deadlock.
   */
  public static void replay(WorkflowExecutionHistory history, Class<?>... workflows)
      throws Exception {
    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
      Worker worker = newWorker(env, "replay");
      worker.registerWorkflowImplementationTypes(JimflowDataConverter.WORKFLOW_OPTIONS, workflows);
      WorkflowReplayer.replayWorkflowExecution(history, worker);
    }
  }

  /** Registers every attribute of {@link JimflowSearchAttributes#ALL} with its type. */
  public static void registerSearchAttributes(TestWorkflowEnvironment env) {
    for (JimflowSearchAttributes.Registration attribute : JimflowSearchAttributes.ALL) {
      env.registerSearchAttribute(
          attribute.name(),
          IndexedValueType.valueOf(
              "INDEXED_VALUE_TYPE_" + attribute.type().toUpperCase(Locale.ROOT)));
    }
  }

  /** A worker of {@code env} on {@code taskQueue} with {@link #workerOptions()}. */
  public static Worker newWorker(TestWorkflowEnvironment env, String taskQueue) {
    return env.newWorker(taskQueue, workerOptions());
  }

  /** Worker options for tests: the deadlock detector at {@link #DEADLOCK_DETECTION_MILLIS}. */
  public static WorkerOptions workerOptions() {
    return workerOptions(WorkerOptions.newBuilder());
  }

  /** {@code builder} with the deadlock detector at {@link #DEADLOCK_DETECTION_MILLIS}. */
  public static WorkerOptions workerOptions(WorkerOptions.Builder builder) {
    return builder.setDefaultDeadlockDetectionTimeout(DEADLOCK_DETECTION_MILLIS).build();
  }
}
