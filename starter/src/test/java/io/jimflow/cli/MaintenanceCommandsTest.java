package io.jimflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.client.JimflowClient;
import io.jimflow.common.TaskQueues;
import io.jimflow.maintenance.ClearConnectedSystemWorkflowImpl;
import io.jimflow.maintenance.DeleteConnectedSystemWorkflowImpl;
import io.jimflow.maintenance.HousekeepingWorkflowImpl;
import io.jimflow.maintenance.MaintenanceActivities;
import io.jimflow.resource.ResourceLockWorkflowImpl;
import io.jimflow.testing.FakeResourceActivities;
import io.jimflow.testing.JimflowTestEnvironment;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code systems clear/delete} and {@code housekeeping run} through the real client and workflows,
 * with recording activities in place of the store.
 */
class MaintenanceCommandsTest {

  private final List<String> calls = new CopyOnWriteArrayList<>();
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private TestWorkflowEnvironment env;
  private boolean failDeletion;

  @BeforeEach
  void open() {
    env = JimflowTestEnvironment.newEnvironment();
    Worker worker = JimflowTestEnvironment.newWorker(env, TaskQueues.MAINTENANCE);
    worker.registerWorkflowImplementationTypes(
        HousekeepingWorkflowImpl.class,
        ClearConnectedSystemWorkflowImpl.class,
        DeleteConnectedSystemWorkflowImpl.class);
    worker.registerActivitiesImplementations(new Recording(), new FakeResourceActivities());
    JimflowTestEnvironment.newWorker(env, TaskQueues.SCHEDULES)
        .registerWorkflowImplementationTypes(ResourceLockWorkflowImpl.class);
    env.start();
  }

  @AfterEach
  void close() {
    env.close();
  }

  private int run(String... args) {
    CommandLine cli =
        JimflowCli.commandLine(settings -> new JimflowClient(env.getWorkflowClient(), null));
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void clearingASystemPrintsItsTotalsAndTheSystemIsReleasedAfterwards() {
    int exit = run("systems", "clear", "hr", "--delete-history");

    assertThat(exit).isZero();
    assertThat(out.toString())
        .contains("Cleared connected system hr. (jimflow-system-hr)")
        .contains("csosDeleted: 3");
    assertThat(calls).containsExactly("begin hr Clearing", "clear hr history=true", "end hr");
  }

  @Test
  void aFailedDeletionExitsOneSayingWhyAndThatTheSystemIsActiveAgain() {
    failDeletion = true;

    int exit = run("systems", "delete", "hr");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString())
        .contains("DeleteConnectedSystem of connected system 'hr' failed: disk full")
        .contains("the system is Active again and the task can be retried");
    assertThat(calls).containsExactly("begin hr Deleting", "orphans hr", "delete hr", "end hr");
  }

  @Test
  void aHousekeepingRunPrintsWhatTheCycleDeletedAndWhatItsSweepFinalized() {
    int exit = run("housekeeping", "run");

    assertThat(exit).isZero();
    assertThat(out.toString())
        .contains("Housekeeping cycle done.")
        .contains("mvosDeleted: 4")
        .contains("strandedRunRecordsEnded: 1")
        .contains("strandedExecutionsEnded: 1");
  }

  @Test
  void aBuiltInScheduleCannotBeDeleted() {
    int exit = run("schedules", "delete", "jimflow-housekeeping", "--force");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("jimflow-housekeeping is built in and cannot be deleted");
  }

  /** Records what the workflows asked for; answers like a small store would. */
  private final class Recording implements MaintenanceActivities {
    @Override
    public MvoDeletionResult deleteDueMvos(MvoDeletionRequest request) {
      return new MvoDeletionResult(request.runRecordId(), 4, 1, false);
    }

    @Override
    public SweepResult sweepStrandedRecords(SweepRequest request) {
      return new SweepResult(1, 0, 1, 0);
    }

    @Override
    public PurgeResult purgeHistory(PurgeRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void openRun(OpenRunRequest request) {}

    @Override
    public void finishRun(FinishRunRequest request) {}

    @Override
    public void beginSystemOperation(SystemOperationRequest request) {
      calls.add("begin " + request.connectedSystem() + " " + request.operation());
    }

    @Override
    public void endSystemOperation(SystemOperationRequest request) {
      calls.add("end " + request.connectedSystem());
    }

    @Override
    public Map<String, Long> clearConnectedSystem(ClearSystemRequest request) {
      calls.add("clear " + request.connectedSystem() + " history=" + request.deleteHistory());
      return Map.of("csosDeleted", 3L);
    }

    @Override
    public Map<String, Long> markOrphanedMvos(SystemRunRequest request) {
      calls.add("orphans " + request.connectedSystem());
      return Map.of("mvosMarkedForDeletion", 2L);
    }

    @Override
    public Map<String, Long> deleteConnectedSystem(SystemRunRequest request) {
      calls.add("delete " + request.connectedSystem());
      if (failDeletion) {
        throw ApplicationFailure.newNonRetryableFailure("disk full", "StoreFailure");
      }
      return Map.of("csosDeleted", 3L);
    }
  }
}
