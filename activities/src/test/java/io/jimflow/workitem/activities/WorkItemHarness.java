package io.jimflow.workitem.activities;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.common.TaskQueues;
import io.jimflow.testing.JimflowTestEnvironment;
import io.jimflow.workitem.WorkItemInput;
import io.jimflow.workitem.WorkItemSpec;
import io.jimflow.workitem.WorkItemState;
import io.jimflow.workitem.WorkItemTransition;
import io.jimflow.workitem.WorkItemView;
import io.jimflow.workitem.WorkItemWorkflow;
import io.jimflow.workitem.WorkItemWorkflowImpl;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.testservice.v1.LockTimeSkippingRequest;
import io.temporal.api.testservice.v1.UnlockTimeSkippingRequest;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WithStartWorkflowOperation;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.serviceclient.TestServiceStubs;
import io.temporal.serviceclient.TestServiceStubsOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A time-skipping Temporal test environment with the work item workflow, the scripted handler and a
 * run worker in its own factory, so a test can shut the run worker down like a real worker process.
 */
final class WorkItemHarness implements AutoCloseable {

  final TestWorkflowEnvironment env;
  final WorkflowClient client;
  final ScriptedHandler handler;
  private final TestServiceStubs testService;
  final RunawayHandlers runaways = new RunawayHandlers();
  private final Duration watchInterval;
  private final int runSlots;
  private final Duration stopWait;
  private final Duration finishedLimit;
  private WorkerFactory runWorkers;

  WorkItemHarness(Duration watchInterval, int runSlots) {
    this(
        watchInterval, runSlots, WorkItemTimings.DEFAULT_STOP_WAIT, WorkItemTimings.FINISHED_LIMIT);
  }

  /**
   * @param stopWait how long an interrupted handler has to end before its slot is released
   * @param finishedLimit WorkItemFinished's limit on the run worker
   */
  WorkItemHarness(Duration watchInterval, int runSlots, Duration stopWait, Duration finishedLimit) {
    this.stopWait = stopWait;
    this.finishedLimit = finishedLimit;
    this.env = JimflowTestEnvironment.newEnvironment();
    this.client = env.getWorkflowClient();
    this.testService =
        TestServiceStubs.newServiceStubs(
            TestServiceStubsOptions.newBuilder()
                .setChannel(env.getWorkflowServiceStubs().getRawChannel())
                .validateAndBuildWithDefaults());
    this.watchInterval = watchInterval;
    this.runSlots = runSlots;
    this.handler = new ScriptedHandler(this::now);
    Worker manager = JimflowTestEnvironment.newWorker(env, TaskQueues.WORK_ITEMS);
    manager.registerWorkflowImplementationTypes(WorkItemWorkflowImpl.class);
    manager.registerActivitiesImplementations(new WorkItemManagerActivitiesImpl(client));
    env.start();
    startRunWorker();
  }

  void startRunWorker() {
    runWorkers = WorkerFactory.newInstance(client);
    Worker runs =
        runWorkers.newWorker(
            TaskQueues.WORK_ITEM_RUNS,
            WorkerOptions.newBuilder().setMaxConcurrentActivityExecutionSize(runSlots).build());
    runs.registerActivitiesImplementations(
        new WorkItemActivitiesImpl(
            new WorkItemHandlerRegistry(List.of(handler)),
            new TemporalWorkItemControl(client),
            new WorkItemTimings(watchInterval, stopWait, finishedLimit),
            runaways));
    runWorkers.start();
  }

  /** A graceful shutdown of the run worker, as a worker process does on SIGTERM. */
  void shutdownRunWorker() {
    runWorkers.shutdown();
    runWorkers.awaitTermination(20, TimeUnit.SECONDS);
  }

  Instant now() {
    return Instant.ofEpochMilli(env.currentTimeMillis());
  }

  /**
   * Moves the server's clock {@code by} ahead while a run activity is outstanding, firing the
   * supervision timers that fall due on the way.
   *
   * <p>The test server stops its clock from the moment an activity is scheduled until it ends, so
   * timers of a running item would otherwise pass in real time. This lifts exactly that one hold
   * for the sleep. The running handlers are held meanwhile, so no run can end (and release its hold
   * a second time) before the clock stops again; they act on what happened once let go.
   */
  void advanceWhileRunning(Duration by) {
    handler.hold();
    try {
      testService.blockingStub().unlockTimeSkipping(UnlockTimeSkippingRequest.getDefaultInstance());
      try {
        sleepOnServer(by);
      } finally {
        testService.blockingStub().lockTimeSkipping(LockTimeSkippingRequest.getDefaultInstance());
      }
    } finally {
      handler.letGo();
    }
  }

  /** Moves the server's clock to the start time of the waiting item {@code guid}. */
  void advanceToStartOf(String guid) {
    Duration wait = Duration.between(now(), show(guid).startTime());
    if (!wait.isNegative()) {
      sleepOnServer(wait);
    }
  }

  /**
   * {@link TestWorkflowEnvironment#sleep}, failing with the server's time-skipping diagnostics when
   * the clock has not got there after 60 s of real time (something still holds it).
   */
  void sleepOnServer(Duration by) {
    java.util.concurrent.CompletableFuture<Void> slept =
        java.util.concurrent.CompletableFuture.runAsync(() -> env.sleep(by));
    try {
      slept.get(60, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError(
          "the server's clock did not move " + by + " within 60 s:\n" + env.getDiagnostics(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * Schedules (or replaces) an item the way WorkItemClient does: update-with-start, USE_EXISTING.
   */
  WorkItemView schedule(WorkItemSpec spec) {
    WorkItemWorkflow stub =
        client.newWorkflowStub(
            WorkItemWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(spec.guid())
                .setTaskQueue(TaskQueues.WORK_ITEMS)
                .setWorkflowIdConflictPolicy(
                    WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING)
                .build());
    return WorkflowClient.executeUpdateWithStart(
        stub::schedule,
        spec,
        UpdateOptions.<WorkItemView>newBuilder()
            .setWaitForStage(WorkflowUpdateStage.COMPLETED)
            .build(),
        new WithStartWorkflowOperation<>(stub::run, WorkItemInput.first(spec)));
  }

  WorkItemSpec spec(String guid, String stateJson, Instant startTime) {
    return WorkItemSpec.of(guid, ScriptedHandler.KIND, stateJson, startTime)
        // Heartbeats are real time, the server's clock skips: a long timeout keeps skips from
        // losing runs.
        .withHeartbeatTimeout(Duration.ofHours(10));
  }

  WorkItemWorkflow item(String guid) {
    return client.newWorkflowStub(WorkItemWorkflow.class, guid);
  }

  WorkItemView show(String guid) {
    return item(guid).show();
  }

  /**
   * Polls the item (real time, no time skipping) until {@code condition} holds. Not across a
   * restart when the test moves the clock afterwards: see {@link #awaitInstance}.
   */
  WorkItemView awaitView(String guid, Predicate<WorkItemView> condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    WorkItemView last = null;
    while (System.nanoTime() < deadline) {
      try {
        last = show(guid);
        if (condition.test(last)) {
          return last;
        }
      } catch (RuntimeException notYetQueryable) {
        // the run may be switching instances
      }
      sleepMillis(20);
    }
    throw new AssertionError(
        "item " + guid + " did not reach the expected condition within 60 s; last: " + last);
  }

  /** Polls (real time) until {@code condition} holds; fails naming {@code what} after 60 s. */
  void awaitHandler(String what, java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("waited 60 s for: " + what);
      }
      sleepMillis(20);
    }
  }

  /**
   * Waits until instance {@code instance} of {@code guid} has begun in {@code state}, without
   * querying the item meanwhile: a query that meets the workflow task ending a run
   * (continue-as-new) leaves the test server's clock held for good, and no timer would fire after
   * it.
   */
  WorkItemView awaitInstance(String guid, int instance, WorkItemState state) {
    awaitHandler(
        "WorkItemFinished of " + guid + " instance " + (instance - 1),
        () -> handler.finishedOf(guid).stream().anyMatch(f -> f.instance() == instance - 1));
    awaitHandler(
        guid + " instance " + instance + " to publish " + state,
        () ->
            state
                .name()
                .equals(
                    client
                        .newUntypedWorkflowStub(guid)
                        .describe()
                        .getTypedSearchAttributes()
                        .get(JimflowSearchAttributes.WORK_ITEM_STATE)));
    WorkItemView view = show(guid);
    assertThat(view.instance()).isEqualTo(instance);
    return view;
  }

  WorkItemView awaitState(String guid, WorkItemState state) {
    return awaitView(guid, v -> v.state() == state);
  }

  /** Waits for the item's final state, letting the server's clock skip ahead. */
  WorkItemView result(String guid) {
    try {
      return client
          .newUntypedWorkflowStub(guid)
          .getResult(90, TimeUnit.SECONDS, WorkItemView.class);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("item " + guid + " did not end; last: " + show(guid), e);
    }
  }

  /**
   * The states the item went through, in order (entries that did not change the state left out).
   */
  static List<WorkItemState> states(WorkItemView view) {
    List<WorkItemState> states = new ArrayList<>();
    for (WorkItemTransition t : view.log()) {
      if (t.from() != t.to()) {
        states.add(t.to());
      }
    }
    return states;
  }

  static void sleepMillis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static void assertTimesNeverGoBack(WorkItemView view) {
    for (int i = 1; i < view.log().size(); i++) {
      assertThat(view.log().get(i).at()).isAfterOrEqualTo(view.log().get(i - 1).at());
    }
  }

  @Override
  public void close() {
    handler.release.countDown();
    runWorkers.shutdownNow();
    testService.shutdownNow();
    env.close();
  }
}
