package io.jimflow.e2e;

import static io.jimflow.e2e.ManualExecutions.TESTER;
import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.cli.JimflowCli;
import io.jimflow.exampledata.ExamplePeople;
import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.StepStatus;
import io.temporal.api.enums.v1.PendingActivityState;
import io.temporal.api.workflow.v1.PendingActivityInfo;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.CanceledFailure;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A user cancels a Delta Synchronisation of a real worker while it works on a later page: the pages
 * it committed stay (metaverse objects, pending exports, run items), the objects it did not reach
 * stay pending for the next Delta Synchronisation, and the run record, the step and the execution
 * end Cancelled.
 */
@ExtendWith(TemporalDevServerExtension.class)
class SynchronisationCancelIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Five pages of the HR System's synchronisation page size in config/connected-systems.yaml. */
  private static final int PAGE = 2_000;

  private static final int PEOPLE = 5 * PAGE;

  /** Generous: a worker, the dev server and other tests share two loaded cores. */
  private static final Duration PATIENCE = Duration.ofMinutes(3);

  @Test
  void aDeltaSynchronisationCancelledOnALaterPageKeepsWhatItCommittedAndLeavesTheRestPending(
      E2eEnvironment env) throws Exception {
    String name = "sync-cancel";
    Path home = env.newDirectory(name);
    Path hr = home.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer out = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(14).write(PEOPLE, out, n -> {});
    }
    // What one uninterrupted synchronisation makes of the file: the HR rule projects everyone not
    // Terminated into the directory; employees among them also get a badge.
    List<String[]> people = Files.readAllLines(hr).stream().skip(1).map(l -> l.split(",")).toList();
    long inScope = people.stream().filter(isActive()).count();
    long badges =
        people.stream().filter(isActive()).filter(p -> p[p.length - 2].equals("Employee")).count();

    // The test reads the worker's store and holds row locks in it; a page waiting for one of those
    // waits as long as the test needs (PostgreSQL's lock waits have no timeout by default).
    E2eEnvironment.TestStore storeOfRun = E2eEnvironment.newStore();
    String namespace = env.newNamespace(name);
    Map<String, String> workerEnv = new java.util.HashMap<>(storeOfRun.environment());
    workerEnv.put("TEMPORAL_NAMESPACE", namespace);
    workerEnv.put("JIMFLOW_DATA_PLANE_BASE_DIRECTORY", home.toString());
    WorkerProcess worker = env.startWorker(name, workerEnv);
    WorkflowClient client = env.client(namespace);

    ExecutionResult imported =
        WorkflowStub.fromTyped(
                ManualExecutions.start(
                    client, name + "-import/" + UUID.randomUUID(), hrStep("Full Import"), TESTER))
            .getResult(PATIENCE.toSeconds(), TimeUnit.SECONDS, ExecutionResult.class);
    assertThat(imported.status()).isEqualTo(ExecutionStatus.Complete);

    try (Connection store = storeOfRun.connect()) {
      // A fresh store: the CSOs are ids 1..PEOPLE, and a synchronisation's pages are id windows of
      // PAGE, so page 2 is (PAGE, 2·PAGE] and the later pages are above it.
      assertThat(number(store, "select min(id) from cso where connected_system_id = 'hr'"))
          .isEqualTo(1);
      assertThat(number(store, "select max(id) from cso where connected_system_id = 'hr'"))
          .isEqualTo(PEOPLE);
      String id = name + "/" + UUID.randomUUID();
      try (Connection secondPage = lockCsos(storeOfRun, PAGE, 2 * PAGE);
          Connection laterPages = lockCsos(storeOfRun, 2 * PAGE, PEOPLE)) {
        WorkflowStub stub =
            WorkflowStub.fromTyped(
                ManualExecutions.start(client, id, hrStep("Delta Synchronisation"), TESTER));
        // Page 1 committed and reported; page 2 now waits for its rows.
        StepHeartbeats.awaitProcessed(client, id, PAGE, PATIENCE);

        stub.cancel();
        Await.until(
            () -> runStep(client, id).stream().anyMatch(cancelRequested()),
            "the server has asked the running synchronisation to stop",
            PATIENCE,
            Duration.ofMillis(200));
        secondPage.rollback();
        // Page 2 commits; the heartbeat that carries its progress brings the cancel back. Until it
        // has, the pages after it stay locked, so the step cannot run to its end meanwhile.
        Await.until(
            () -> runStep(client, id).isEmpty() || StepHeartbeats.processed(client, id) >= 2 * PAGE,
            "page 2's progress has reached the server",
            PATIENCE,
            Duration.ofMillis(200));
        laterPages.rollback();

        WorkflowFailedException failure =
            catchThrowableOfType(
                () -> stub.getResult(PATIENCE.toSeconds(), TimeUnit.SECONDS, Object.class),
                WorkflowFailedException.class);
        assertThat(failure).isNotNull();
        assertThat(failure.getCause()).isInstanceOf(CanceledFailure.class);
        ExecutionProgress progress = stub.query("progress", ExecutionProgress.class);
        assertThat(progress.status()).isEqualTo(ExecutionStatus.Cancelled);
        assertThat(progress.steps().get(0).status()).isEqualTo(StepStatus.Cancelled);
      }

      JsonNode record = deltaSyncRecords(env, namespace).get(0);
      String runRecordId = record.get("id").asText();
      assertThat(record.get("status").asText()).isEqualTo("Cancelled");
      long processed = record.get("objectsProcessed").asLong();
      // Page 2 at least (it was running when the cancel came), page 3 at most (the cancel had
      // reached the worker before page 3 could commit), and never a part of a page.
      assertThat(processed).isIn((long) 2 * PAGE, (long) 3 * PAGE);
      JsonNode totals = record.get("totals");
      // The committed pages' changes are kept...
      assertThat(number(store, "select count(*) from mvo"))
          .isEqualTo(totals.get("projected").asLong())
          .isPositive();
      assertThat(number(store, "select count(*) from pending_export"))
          .isEqualTo(totals.get("pendingExports").asLong())
          .isPositive();
      assertThat(
              number(
                  store,
                  "select count(*) from run_item where run_record_id = '" + runRecordId + "'"))
          .isEqualTo(record.get("itemCount").asLong())
          .isPositive();
      // The execution's history in the store names the record of its cancelled step.
      assertThat(
              text(
                  store,
                  "select status || ' ' || run_record_id from execution_step where execution_id"
                      + " = '"
                      + id
                      + "'"))
          .isEqualTo("Cancelled " + runRecordId);
      // ... and only the objects they synchronised left the next delta's work.
      assertThat(
              number(
                  store,
                  "select count(*) from cso where connected_system_id = 'hr' and sync_pending"))
          .isEqualTo(PEOPLE - processed);

      ExecutionResult next =
          WorkflowStub.fromTyped(
                  ManualExecutions.start(
                      client,
                      name + "-next/" + UUID.randomUUID(),
                      hrStep("Delta Synchronisation"),
                      TESTER))
              .getResult(PATIENCE.toSeconds(), TimeUnit.SECONDS, ExecutionResult.class);

      assertThat(next.status()).isEqualTo(ExecutionStatus.Complete);
      assertThat(next.steps().get(0).stats()).containsEntry("objectsProcessed", PEOPLE - processed);
      // As after one uninterrupted synchronisation, nothing twice.
      assertThat(number(store, "select count(*) from mvo")).isEqualTo(inScope);
      assertThat(number(store, "select count(*) from pending_export")).isEqualTo(inScope + badges);
      assertThat(
              number(
                  store,
                  "select count(*) from (select mvo_id, connected_system_id from pending_export"
                      + " group by mvo_id, connected_system_id having count(*) > 1) d"))
          .isZero();
      assertThat(
              number(
                  store,
                  "select count(*) from cso where connected_system_id = 'hr' and sync_pending"))
          .isZero();
    }
    assertThat(deltaSyncRecords(env, namespace))
        .extracting(r -> r.get("status").asText())
        .containsExactlyInAnyOrder("Cancelled", "Complete");
    worker.terminate(Duration.ofSeconds(30));
  }

  private static ScheduleDefinition hrStep(String runProfile) {
    return aSchedule("sync-cancel")
        .named("Synchronisation cancel")
        .with(
            aStep(0, "HR System - " + runProfile)
                .withStepDefaults()
                .runProfile("HR System", runProfile)
                .timeout(Duration.ofMinutes(20))
                // Longer than any wait of a page for the test's row locks.
                .heartbeatTimeout(Duration.ofMinutes(10)))
        .definition();
  }

  private static Predicate<String[]> isActive() {
    return p -> !p[p.length - 1].equals("Terminated");
  }

  /** The execution's running synchronisation step, as the server has it (empty once it ended). */
  private static List<PendingActivityInfo> runStep(WorkflowClient client, String workflowId) {
    return StepHeartbeats.pending(client, workflowId).stream()
        .filter(a -> a.getActivityType().getName().equals("RunStep"))
        .toList();
  }

  private static Predicate<PendingActivityInfo> cancelRequested() {
    return a -> a.getState() == PendingActivityState.PENDING_ACTIVITY_STATE_CANCEL_REQUESTED;
  }

  /**
   * Opens a transaction that locks the HR System's CSOs with ids in ({@code from}, {@code to}]: a
   * synchronisation page that updates them waits until it rolls back.
   */
  private static Connection lockCsos(E2eEnvironment.TestStore store, long from, long to)
      throws SQLException {
    Connection connection = store.connect();
    connection.setAutoCommit(false);
    try (PreparedStatement lock =
        connection.prepareStatement(
            "select id from cso where connected_system_id = 'hr' and id > ? and id <= ?"
                + " for update")) {
      lock.setLong(1, from);
      lock.setLong(2, to);
      long locked = 0;
      try (ResultSet rows = lock.executeQuery()) {
        while (rows.next()) {
          locked++;
        }
      }
      assertThat(locked).isEqualTo(to - from);
    } catch (SQLException | RuntimeException | Error e) {
      connection.close();
      throw e;
    }
    return connection;
  }

  /** The run records of the HR System's delta synchronisations, as the CLI lists them. */
  private static List<JsonNode> deltaSyncRecords(E2eEnvironment env, String namespace)
      throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        JimflowCli.commandLine()
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .execute(
                "runs",
                "list",
                "--system",
                "hr",
                "--json",
                "--address",
                env.target(),
                "--namespace",
                namespace);
    assertThat(exit).as(err.toString()).isZero();
    return StreamSupport.stream(JSON.readTree(out.toString()).get("runs").spliterator(), false)
        .filter(r -> r.get("runProfile").asText().equals("delta-sync"))
        .toList();
  }

  private static String text(Connection store, String query) throws SQLException {
    try (Statement sql = store.createStatement();
        ResultSet rows = sql.executeQuery(query)) {
      rows.next();
      return rows.getString(1);
    }
  }

  private static long number(Connection store, String query) throws SQLException {
    try (Statement sql = store.createStatement();
        ResultSet rows = sql.executeQuery(query)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
