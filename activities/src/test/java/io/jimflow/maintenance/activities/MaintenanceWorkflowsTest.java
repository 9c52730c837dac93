package io.jimflow.maintenance.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.common.TaskQueues;
import io.jimflow.maintenance.ClearConnectedSystemWorkflow;
import io.jimflow.maintenance.ClearConnectedSystemWorkflowImpl;
import io.jimflow.maintenance.DeleteConnectedSystemWorkflow;
import io.jimflow.maintenance.DeleteConnectedSystemWorkflowImpl;
import io.jimflow.maintenance.HistoryRetentionInput;
import io.jimflow.maintenance.HistoryRetentionResult;
import io.jimflow.maintenance.HistoryRetentionWorkflow;
import io.jimflow.maintenance.HistoryRetentionWorkflowImpl;
import io.jimflow.maintenance.HousekeepingInput;
import io.jimflow.maintenance.HousekeepingWorkflow;
import io.jimflow.maintenance.HousekeepingWorkflowImpl;
import io.jimflow.maintenance.MaintenanceActivities;
import io.jimflow.maintenance.MaintenanceActivities.MvoDeletionResult;
import io.jimflow.maintenance.MaintenanceActivities.SweepResult;
import io.jimflow.maintenance.MaintenanceKind;
import io.jimflow.maintenance.SystemMaintenanceInput;
import io.jimflow.maintenance.SystemMaintenanceResult;
import io.jimflow.maintenance.SystemOperation;
import io.jimflow.maintenance.activities.ExecutionStates.ExecutionState;
import io.jimflow.resource.ResourceLockWorkflow;
import io.jimflow.resource.ResourceLockWorkflowImpl;
import io.jimflow.resource.Resources;
import io.jimflow.resource.activities.ResourceActivitiesImpl;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.steps.AbandonedRun;
import io.jimflow.schedule.steps.RunProfileExecutor;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.schedule.steps.StepProgress;
import io.jimflow.store.ExecutionRecords;
import io.jimflow.store.MaintenanceRuns;
import io.jimflow.store.MaintenanceRuns.MaintenanceRun;
import io.jimflow.store.RunRecord;
import io.jimflow.store.RunRecords;
import io.jimflow.store.RunStatus;
import io.jimflow.store.Store;
import io.jimflow.store.TestStores;
import io.jimflow.testing.JimflowTestEnvironment;
import io.jimflow.testing.SettableClock;
import io.temporal.activity.Activity;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The maintenance workflows with the real activities on a PostgreSQL store, in the test
 * environment.
 */
class MaintenanceWorkflowsTest {

  private static final Initiator ADA = new Initiator(InitiatorType.User, "ada", "Ada Admin");

  /** Now in the test environment: the workflows' time and the store's clock start together. */
  private Instant T;

  private Store store;
  private SettableClock clock;
  private MaintenanceData data;
  private MaintenanceRuns runs;
  private SystemOperations operations;
  private TestWorkflowEnvironment env;
  private WorkflowClient client;

  @BeforeEach
  void open() {
    env = JimflowTestEnvironment.newEnvironment();
    client = env.getWorkflowClient();
    T = Instant.ofEpochMilli(env.currentTimeMillis());
    store = TestStores.postgres();
    clock = new SettableClock(T);
    data = new MaintenanceData(store, clock);
    runs = new MaintenanceRuns(clock);
    operations = new SystemOperations(store, clock);
  }

  @AfterEach
  void close() {
    env.close();
    store.close();
  }

  private MaintenanceActivitiesImpl activities() {
    return activities(true);
  }

  private MaintenanceActivitiesImpl activities(boolean destructiveTasksEnabled) {
    return new MaintenanceActivitiesImpl(
        new StoreMaintenance(store, MaintenanceData.ENGINE, clock),
        runs,
        operations,
        new MaintenanceSettings(50, null, 1000),
        id -> List.of("hr", "directory").contains(id),
        destructiveTasksEnabled);
  }

  private MaintenanceActivitiesImpl activities(ExecutionStates temporal) {
    return new MaintenanceActivitiesImpl(
        new StoreMaintenance(store, MaintenanceData.ENGINE, clock),
        runs,
        operations,
        new MaintenanceSettings(50, null, 1000),
        id -> List.of("hr", "directory").contains(id),
        true,
        temporal,
        clock);
  }

  private void start(MaintenanceActivities activities) {
    Worker worker = JimflowTestEnvironment.newWorker(env, TaskQueues.MAINTENANCE);
    worker.registerWorkflowImplementationTypes(
        HousekeepingWorkflowImpl.class,
        HistoryRetentionWorkflowImpl.class,
        ClearConnectedSystemWorkflowImpl.class,
        DeleteConnectedSystemWorkflowImpl.class);
    worker.registerActivitiesImplementations(activities, new ResourceActivitiesImpl(runProfiles()));
    Worker locks = JimflowTestEnvironment.newWorker(env, TaskQueues.SCHEDULES);
    locks.registerWorkflowImplementationTypes(ResourceLockWorkflowImpl.class);
    // As on a worker: the locks ask claimants through the resource activities of their queue.
    locks.registerActivitiesImplementations(new ResourceActivitiesImpl(runProfiles()));
    env.start();
  }

  /** Names the resources of a system as the step names it; runs nothing. */
  private static RunProfileExecutor runProfiles() {
    return new RunProfileExecutor() {
      @Override
      public RunProfileOutcome execute(RunProfileRun run, StepProgress progress) {
        throw new UnsupportedOperationException("no run profiles in these tests");
      }

      @Override
      public Optional<String> abandon(AbandonedRun abandoned) {
        return Optional.empty();
      }
    };
  }

  private <T> T stub(Class<T> type, String id) {
    return client.newWorkflowStub(
        type,
        WorkflowOptions.newBuilder()
            .setTaskQueue(TaskQueues.MAINTENANCE)
            .setWorkflowId(id)
            .build());
  }

  private List<MaintenanceRun> records(MaintenanceKind kind) {
    return store.inTransaction(c -> runs.list(c, kind, 100));
  }

  @Test
  void aHousekeepingCycleWritesARunRecordOnlyWhenItDeletedSomething() {
    start(activities());
    data.person("1", T.minusSeconds(1));
    data.person("2", T.plusSeconds(60));

    MvoDeletionResult busy =
        stub(HousekeepingWorkflow.class, "hk-1").run(new HousekeepingInput(null, null));
    MvoDeletionResult idle =
        stub(HousekeepingWorkflow.class, "hk-2").run(new HousekeepingInput(null, null));

    assertThat(busy.mvosDeleted()).isEqualTo(1);
    assertThat(idle.mvosDeleted()).isZero();
    assertThat(idle.runRecordId()).isNull();
    List<MaintenanceRun> written = records(MaintenanceKind.Housekeeping);
    assertThat(written)
        .singleElement()
        .satisfies(
            run -> {
              assertThat(run.id()).isEqualTo(busy.runRecordId());
              assertThat(run.status()).isEqualTo("Complete");
              assertThat(run.workflowId()).isEqualTo("hk-1");
              assertThat(run.totals()).containsEntry("mvosDeleted", 1L);
            });
  }

  @Test
  void aCycleCappedBelowTheDueMvosSaysSoInItsRunRecord() {
    start(activities());
    for (int i = 0; i < 5; i++) {
      data.person("p" + i, T.minusSeconds(1));
    }

    MvoDeletionResult result =
        stub(HousekeepingWorkflow.class, "hk").run(new HousekeepingInput(null, 2));

    assertThat(result.mvosDeleted()).isEqualTo(2);
    assertThat(result.capReached()).isTrue();
    assertThat(records(MaintenanceKind.Housekeeping).get(0).message())
        .contains("cap of 2 MVOs per cycle reached");
    assertThat(data.count("select count(*) from mvo")).isEqualTo(3);
  }

  @Test
  void aHousekeepingCycleFinalizesWhatEndedExecutionsLeftInProgressSoTheSystemCanBeCleared() {
    Map<String, ExecutionState> temporal =
        Map.of(
            "terminated",
            new ExecutionState(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED, null),
            "timed-out",
            new ExecutionState(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TIMED_OUT, null),
            "running",
            new ExecutionState(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING, null),
            "clear-terminated",
            new ExecutionState(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED, null));
    start(activities((id, run) -> Optional.ofNullable(temporal.get(id))));
    data.joinedCso("hr", "1", null);
    data.joinedCso("directory", "1", null);
    // A clear that was terminated before these runs: its hold stayed too.
    operations.hold("hr", SystemOperation.Clearing, "clear-terminated");
    String terminated = data.inProgressRunOf("hr", "terminated");
    String timedOut = data.inProgressRunOf("hr", "timed-out");
    String unknown = data.inProgressRunOf("hr", "gone");
    String running = data.inProgressRunOf("directory", "running");
    ExecutionRecords executions = new ExecutionRecords(clock);
    data.executionRecordAt("terminated", null, 0);
    data.executionRecordAt("running", null, 0);
    assertThatThrownBy(
            () ->
                stub(ClearConnectedSystemWorkflow.class, "clear-before")
                    .run(new SystemMaintenanceInput("hr", false, ADA)))
        .rootCause()
        .hasMessageContaining("is being cleared (workflow clear-terminated");

    MvoDeletionResult cycle =
        stub(HousekeepingWorkflow.class, "hk").run(new HousekeepingInput(null, null));

    assertThat(cycle.swept()).isEqualTo(new SweepResult(3, 0, 1, 1));
    RunRecords runRecords = new RunRecords(clock);
    Map<String, RunRecord> after =
        store.inTransaction(
            c -> {
              Map<String, RunRecord> found = new java.util.HashMap<>();
              for (String id : List.of(terminated, timedOut, unknown, running)) {
                found.put(id, runRecords.find(c, id).orElseThrow());
              }
              return found;
            });
    assertThat(after.get(terminated).status()).isEqualTo(RunStatus.Cancelled);
    assertThat(after.get(terminated).message())
        .isEqualTo("stranded: execution terminated was terminated before the record was ended");
    assertThat(after.get(terminated).endedAt()).isNotNull();
    assertThat(after.get(timedOut).status()).isEqualTo(RunStatus.FailedWithError);
    assertThat(after.get(timedOut).message()).contains("timed out");
    assertThat(after.get(unknown).status()).isEqualTo(RunStatus.FailedWithError);
    assertThat(after.get(unknown).message()).contains("unknown to Temporal");
    assertThat(after.get(running).status()).isEqualTo(RunStatus.InProgress);
    assertThat(store.inTransaction(c -> executions.find(c, "terminated")).orElseThrow())
        .satisfies(
            e -> {
              assertThat(e.status()).isEqualTo(ExecutionStatus.Failed);
              assertThat(e.message()).contains("was terminated before it recorded its end");
              assertThat(e.endedAt()).isNotNull();
            });
    assertThat(store.inTransaction(c -> executions.find(c, "running")).orElseThrow().status())
        .isEqualTo(ExecutionStatus.InProgress);

    SystemMaintenanceResult cleared =
        stub(ClearConnectedSystemWorkflow.class, "clear-after")
            .run(new SystemMaintenanceInput("hr", false, ADA));
    assertThat(cleared.totals()).containsEntry("csosDeleted", 1L);
  }

  /**
   * A connected system's clear terminated mid-way and started again reuses its workflow id: the
   * sweeper asks Temporal about the record's own run, so it ends the terminated run's record and
   * leaves the new run's alone (asked by workflow id only, the old record looked running).
   */
  @Test
  void theSweeperEndsARecordOfATerminatedRunThoughALaterRunReusesItsWorkflowId() {
    start(activities());
    WorkflowOptions reused =
        WorkflowOptions.newBuilder()
            .setTaskQueue("no-worker-polls-this-queue")
            .setWorkflowId("jimflow-system-hr")
            .build();
    WorkflowStub first = client.newUntypedWorkflowStub("ClearConnectedSystem", reused);
    String firstRun = first.start().getRunId();
    first.terminate("the operator stopped the clear");
    WorkflowStub second = client.newUntypedWorkflowStub("ClearConnectedSystem", reused);
    String secondRun = second.start().getRunId();
    assertThat(secondRun).isNotEqualTo(firstRun);
    store.inTransaction(
        c -> {
          runs.open(
              c,
              "old",
              MaintenanceKind.ClearConnectedSystem,
              "hr",
              ADA,
              "jimflow-system-hr",
              firstRun);
          return runs.open(
              c,
              "new",
              MaintenanceKind.ClearConnectedSystem,
              "hr",
              ADA,
              "jimflow-system-hr",
              secondRun);
        });

    MvoDeletionResult cycle =
        stub(HousekeepingWorkflow.class, "hk").run(new HousekeepingInput(null, null));

    assertThat(cycle.swept()).isEqualTo(new SweepResult(0, 1, 0, 0));
    MaintenanceRun old = store.inTransaction(c -> runs.find(c, "old")).orElseThrow();
    assertThat(old.status()).isEqualTo("Cancelled");
    assertThat(old.message())
        .isEqualTo(
            "stranded: execution jimflow-system-hr (run "
                + firstRun
                + ") was terminated before the record was ended");
    assertThat(old.runId()).isEqualTo(firstRun);
    assertThat(store.inTransaction(c -> runs.find(c, "new")).orElseThrow().status())
        .isEqualTo("InProgress");
  }

  /** The records the maintenance workflows open name their run, as the sweeper needs. */
  @Test
  void aMaintenanceRunRecordNamesTheRunThatOpenedIt() {
    start(activities());
    data.person("1", T.minusSeconds(1));

    WorkflowStub housekeeping =
        client.newUntypedWorkflowStub(
            "Housekeeping",
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.MAINTENANCE)
                .setWorkflowId("hk-named")
                .build());
    String runId = housekeeping.start(new HousekeepingInput(null, null)).getRunId();
    MvoDeletionResult result = housekeeping.getResult(MvoDeletionResult.class);

    MaintenanceRun record =
        store.inTransaction(c -> runs.find(c, result.runRecordId())).orElseThrow();
    assertThat(record.workflowId()).isEqualTo("hk-named");
    assertThat(record.runId()).isEqualTo(runId);
  }

  @Test
  void historyRetentionRecordsWhatItDeletedPerKind() {
    start(activities());
    long cso = data.joinedCso("hr", "1", null);
    data.csoChangeAt(T.minus(Duration.ofDays(91)), cso, "hr");
    data.csoChangeAt(T.minus(Duration.ofDays(89)), cso, "hr");
    data.endedRunAt(T.minus(Duration.ofDays(100)), 4);

    HistoryRetentionResult result =
        stub(HistoryRetentionWorkflow.class, "retention")
            .run(new HistoryRetentionInput(null, null, 2));

    assertThat(result.status()).isEqualTo("Complete");
    assertThat(result.totals())
        .containsEntry("csoChangesDeleted", 1L)
        .containsEntry("mvoChangesDeleted", 0L)
        .containsEntry("runRecordsDeleted", 1L)
        .containsEntry("runItemsDeleted", 4L);
    MaintenanceRun record = records(MaintenanceKind.HistoryRetention).get(0);
    assertThat(record.totals()).isEqualTo(result.totals());
    assertThat(record.initiator().type()).isEqualTo(InitiatorType.System);
  }

  @Test
  void aFailedDeletionSetsTheSystemBackToActiveAndCanBeRetried() {
    AtomicInteger failuresLeft = new AtomicInteger(1);
    MaintenanceActivitiesImpl real = activities();
    start(new FailingDeletion(real, failuresLeft));
    String mvo = data.person("7", null);
    data.joinedCso("hr", "7", mvo);

    assertThatThrownBy(
            () ->
                stub(DeleteConnectedSystemWorkflow.class, "delete-1")
                    .run(new SystemMaintenanceInput("hr", false, ADA)))
        .isInstanceOf(WorkflowFailedException.class)
        .rootCause()
        .hasMessageContaining("DeleteConnectedSystem of connected system 'hr' failed: disk full")
        .hasMessageContaining("Active again");
    SystemOperation afterFailure = operations.status("hr");
    assertThat(afterFailure).isEqualTo(SystemOperation.Active);
    assertThat(records(MaintenanceKind.DeleteConnectedSystem))
        .singleElement()
        .satisfies(
            run -> {
              assertThat(run.status()).isEqualTo("FailedWithError");
              assertThat(run.totals()).containsEntry("mvosMarkedForDeletion", 1L);
              assertThat(run.initiator()).isEqualTo(ADA);
            });

    SystemMaintenanceResult retried =
        stub(DeleteConnectedSystemWorkflow.class, "delete-2")
            .run(new SystemMaintenanceInput("hr", false, ADA));

    // The failed attempt had marked the MVO already; the retry finds it marked and keeps its date.
    assertThat(retried.totals())
        .containsEntry("csosDeleted", 1L)
        .containsEntry("mvosMarkedForDeletion", 0L);
    assertThat(data.count("select count(*) from mvo where deletion_eligible_at is not null"))
        .isEqualTo(1);
    assertThat(data.count("select count(*) from connected_system where id = 'hr'")).isZero();
    assertThat(data.count("select count(*) from connected_system_operation")).isZero();
    assertThat(records(MaintenanceKind.DeleteConnectedSystem))
        .extracting(MaintenanceRun::status)
        .containsExactlyInAnyOrder("FailedWithError", "Complete");
  }

  @Test
  void aWorkerThatDoesNotAllowDestructiveTasksRefusesClearAndDeleteAndKeepsTheData() {
    start(activities(false));
    data.joinedCso("hr", "7", data.person("7", null));
    long objects = data.count("select count(*) from cso");

    assertThatThrownBy(
            () ->
                stub(ClearConnectedSystemWorkflow.class, "clear-refused")
                    .run(new SystemMaintenanceInput("hr", true, ADA)))
        .rootCause()
        .hasMessageContaining("this worker does not clear or delete connected systems")
        .hasMessageContaining("jimflow.maintenance.destructive-tasks-enabled");
    assertThatThrownBy(
            () ->
                stub(DeleteConnectedSystemWorkflow.class, "delete-refused")
                    .run(new SystemMaintenanceInput("hr", false, ADA)))
        .rootCause()
        .hasMessageContaining("Deleting connected system 'hr' refused");

    assertThat(data.count("select count(*) from cso")).isEqualTo(objects).isPositive();
    assertThat(data.count("select count(*) from connected_system where id = 'hr'")).isOne();
    assertThat(data.count("select count(*) from connected_system_operation")).isZero();
  }

  @Test
  void anUnknownSystemIsRefusedWithoutRetrying() {
    start(activities());

    assertThatThrownBy(
            () ->
                stub(ClearConnectedSystemWorkflow.class, "clear-x")
                    .run(new SystemMaintenanceInput("nope", false, ADA)))
        .rootCause()
        .hasMessageContaining("unknown connected system 'nope'");
    assertThat(records(MaintenanceKind.ClearConnectedSystem))
        .singleElement()
        .satisfies(run -> assertThat(run.status()).isEqualTo("FailedWithError"));
  }

  @Test
  void cancellingAClearReleasesTheSystemAndEndsItsRunRecordCancelled() throws Exception {
    MaintenanceActivitiesImpl real = activities();
    CountDownLatch clearing = new CountDownLatch(1);
    start(
        new Delegating(real) {
          @Override
          public Map<String, Long> clearConnectedSystem(ClearSystemRequest request) {
            clearing.countDown();
            // A clear of a very large system: heartbeats page after page until cancelled.
            for (long page = 0; ; page++) {
              Activity.getExecutionContext().heartbeat(page);
              try {
                Thread.sleep(50);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
              }
            }
          }
        });
    ClearConnectedSystemWorkflow clear = stub(ClearConnectedSystemWorkflow.class, "clear-hr");
    WorkflowClient.start(clear::run, new SystemMaintenanceInput("hr", false, ADA));
    assertThat(clearing.await(30, TimeUnit.SECONDS)).isTrue();
    SystemOperation during = operations.status("hr");
    ResourceLockWorkflow lock =
        client.newWorkflowStub(ResourceLockWorkflow.class, Resources.lockWorkflowId("hr"));
    assertThat(lock.state().holder().holderId())
        .as("the clear holds the system as a run of it would")
        .isEqualTo("clear-hr");

    WorkflowStub.fromTyped(clear).cancel();

    assertThatThrownBy(() -> WorkflowStub.fromTyped(clear).getResult(SystemMaintenanceResult.class))
        .isInstanceOf(WorkflowFailedException.class)
        .hasCauseInstanceOf(CanceledFailure.class);
    SystemOperation after = operations.status("hr");
    assertThat(during).isEqualTo(SystemOperation.Clearing);
    assertThat(after).isEqualTo(SystemOperation.Active);
    assertThat(records(MaintenanceKind.ClearConnectedSystem))
        .singleElement()
        .satisfies(run -> assertThat(run.status()).isEqualTo("Cancelled"));
    client.newUntypedWorkflowStub(Resources.lockWorkflowId("hr")).getResult(Void.class);
    assertThat(lock.state().holder()).as("the cancelled clear gave the system back").isNull();
  }

  /** The real activities, except that deleting the system fails while failures are left. */
  private static final class FailingDeletion extends Delegating {
    private final AtomicInteger failuresLeft;

    FailingDeletion(MaintenanceActivitiesImpl real, AtomicInteger failuresLeft) {
      super(real);
      this.failuresLeft = failuresLeft;
    }

    @Override
    public Map<String, Long> deleteConnectedSystem(SystemRunRequest request) {
      if (failuresLeft.getAndDecrement() > 0) {
        throw ApplicationFailure.newNonRetryableFailure("disk full", "StoreFailure");
      }
      return super.deleteConnectedSystem(request);
    }
  }

  /** Hands every call to the real activities; tests override what they script. */
  private static class Delegating implements MaintenanceActivities {
    private final MaintenanceActivitiesImpl real;

    Delegating(MaintenanceActivitiesImpl real) {
      this.real = real;
    }

    @Override
    public Map<String, Long> deleteConnectedSystem(SystemRunRequest request) {
      return real.deleteConnectedSystem(request);
    }

    @Override
    public MvoDeletionResult deleteDueMvos(MvoDeletionRequest request) {
      return real.deleteDueMvos(request);
    }

    @Override
    public PurgeResult purgeHistory(PurgeRequest request) {
      return real.purgeHistory(request);
    }

    @Override
    public SweepResult sweepStrandedRecords(SweepRequest request) {
      return real.sweepStrandedRecords(request);
    }

    @Override
    public void openRun(OpenRunRequest request) {
      real.openRun(request);
    }

    @Override
    public void finishRun(FinishRunRequest request) {
      real.finishRun(request);
    }

    @Override
    public void beginSystemOperation(SystemOperationRequest request) {
      real.beginSystemOperation(request);
    }

    @Override
    public void endSystemOperation(SystemOperationRequest request) {
      real.endSystemOperation(request);
    }

    @Override
    public Map<String, Long> clearConnectedSystem(ClearSystemRequest request) {
      return real.clearConnectedSystem(request);
    }

    @Override
    public Map<String, Long> markOrphanedMvos(SystemRunRequest request) {
      return real.markOrphanedMvos(request);
    }
  }
}
