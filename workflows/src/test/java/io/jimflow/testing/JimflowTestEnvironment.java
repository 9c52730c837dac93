package io.jimflow.testing;

import io.jimflow.common.JimflowSearchAttributes;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerOptions;
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
