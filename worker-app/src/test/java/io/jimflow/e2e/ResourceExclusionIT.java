package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.cli.JimflowCli;
import io.jimflow.exampledata.ExamplePeople;
import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * Two manual runs of the Nightly HR Sync started together on the same input: the second waits for
 * "HR System" while the first holds it, no two runs touch one connected system at once, and the
 * identities end as after a single run.
 *
 * <p>{@code -Djimflow.e2e.exclusionPeople=50000} runs it with 50,000 people (default 2,000, to keep
 * CI short).
 */
@ExtendWith(TemporalDevServerExtension.class)
class ResourceExclusionIT {

  private static final int PEOPLE = Integer.getInteger("jimflow.e2e.exclusionPeople", 2_000);
  private static final Duration RUN_LIMIT = Duration.ofMinutes(20);

  @Test
  void twoRunsOfTheNightlySyncStartedTogetherTakeTurnsAndEndAsOneRunWould(E2eEnvironment env)
      throws Exception {
    Home single = home(env, "exclusion-single");
    Home pair = home(env, "exclusion-pair");
    WorkerProcess singleWorker = env.startWorker("exclusion-single", single.workerEnv());
    WorkerProcess pairWorker = env.startWorker("exclusion-pair", pair.workerEnv());

    String only = run(env, single);
    ExecutionResult alone = result(env, single, only);
    singleWorker.terminate(Duration.ofSeconds(30));
    assertThat(alone.status()).as(alone.message()).isEqualTo(ExecutionStatus.Complete);

    String first = run(env, pair);
    String second = run(env, pair);
    String[] waiting = awaitOneWaitingForTheOther(env, pair, first, second);
    String waitingLine = waiting[0];
    String shown = waiting[1];
    ExecutionResult firstResult = result(env, pair, first);
    ExecutionResult secondResult = result(env, pair, second);
    pairWorker.terminate(Duration.ofSeconds(30));

    assertThat(waitingLine).startsWith("waiting for HR System, held by ");
    assertThat(shown).contains("Waiting").contains("waiting for HR System, held by ");
    for (ExecutionResult r : List.of(firstResult, secondResult)) {
      assertThat(r.status()).as(r.message()).isEqualTo(ExecutionStatus.Complete);
      StepOutcome sync = step(r, "HR System - Full Sync");
      assertThat(sync.stats()).containsEntry("objectsProcessed", (long) PEOPLE);
    }
    try (Connection store = pair.connect();
        Statement sql = store.createStatement()) {
      assertThat(overlaps(sql)).isEmpty();
      assertThat(count(sql, "select count(*) from run_record")).isEqualTo(12);
    }
    assertThat(pair.identities()).isEqualTo(single.identities());
  }

  /**
   * Follows both executions until one's first step waits while the other's runs; returns the
   * waiting one's progress message and what {@code executions show} printed for it meanwhile.
   */
  private static String[] awaitOneWaitingForTheOther(
      E2eEnvironment env, Home home, String a, String b) throws InterruptedException {
    WorkflowClient client = env.client(home.namespace());
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    List<String> seen = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      for (String[] pair : new String[][] {{a, b}, {b, a}}) {
        StepOutcome waiting = firstStep(client, pair[0]);
        StepOutcome running = firstStep(client, pair[1]);
        if (waiting != null && running != null) {
          seen.add(waiting.status() + ": " + waiting.message());
          if (waiting.status() == StepStatus.Waiting
              && waiting.message() != null
              && waiting.message().contains("held by " + pair[1])
              && running.status() == StepStatus.Running) {
            String shown = executionsShow(env, home, pair[0]);
            // The wait may have ended between the query and the command: then look again.
            if (shown.contains("waiting for HR System")) {
              return new String[] {waiting.message(), shown};
            }
          }
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("neither execution was seen waiting for the other; saw " + seen);
  }

  /** {@code jimflow executions show <id>}, as printed. */
  private static String executionsShow(E2eEnvironment env, Home home, String workflowId) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        JimflowCli.commandLine()
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .execute(
                "executions",
                "show",
                workflowId,
                "--address",
                env.target(),
                "--namespace",
                home.namespace());
    assertThat(exit).as(err.toString()).isZero();
    return out.toString();
  }

  private static StepOutcome firstStep(WorkflowClient client, String workflowId) {
    try {
      ExecutionProgress progress =
          client.newUntypedWorkflowStub(workflowId).query("progress", ExecutionProgress.class);
      return progress.steps().isEmpty() ? null : progress.steps().get(0);
    } catch (RuntimeException notYetAnswered) {
      return null;
    }
  }

  /** Pairs of run records of one connected system whose times overlap. */
  private static List<String> overlaps(Statement sql) throws Exception {
    List<String> found = new ArrayList<>();
    try (ResultSet rows =
        sql.executeQuery(
            "select a.connected_system_id, a.id, b.id from run_record a join run_record b"
                + " on a.connected_system_id = b.connected_system_id and a.id < b.id"
                + " where a.created_at < b.ended_at and b.created_at < a.ended_at")) {
      while (rows.next()) {
        found.add(rows.getString(1) + ": " + rows.getString(2) + " / " + rows.getString(3));
      }
    }
    return found;
  }

  private static long count(Statement sql, String query) throws Exception {
    try (ResultSet rows = sql.executeQuery(query)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  private static StepOutcome step(ExecutionResult result, String name) {
    return result.steps().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  private static ExecutionResult result(E2eEnvironment env, Home home, String workflowId)
      throws Exception {
    WorkflowStub stub = env.client(home.namespace()).newUntypedWorkflowStub(workflowId);
    return stub.getResult(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS, ExecutionResult.class);
  }

  /** {@code jimflow start nightly-hr-sync -f config/schedules.yaml}; returns the workflow id. */
  private static String run(E2eEnvironment env, Home home) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = JimflowCli.commandLine();
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    int exit =
        cli.execute(
            "start",
            "nightly-hr-sync",
            "-f",
            env.projectHome().resolve("config/schedules.yaml").toString(),
            "--address",
            env.target(),
            "--namespace",
            home.namespace());
    assertThat(exit).as(err.toString()).isZero();
    return out.toString().strip();
  }

  private static Home home(E2eEnvironment env, String name) throws Exception {
    Path dir = env.newDirectory(name);
    Path hr = dir.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer out = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(14).write(PEOPLE, out, n -> {});
    }
    return new Home(env.newNamespace(name), dir, E2eEnvironment.newStore());
  }

  /** One worker's namespace, store and data files. */
  private record Home(String namespace, Path dir, E2eEnvironment.TestStore store) {

    Map<String, String> workerEnv() {
      Map<String, String> env = new java.util.HashMap<>(store.environment());
      env.put("TEMPORAL_NAMESPACE", namespace);
      env.put("JIMFLOW_DATA_PLANE_BASE_DIRECTORY", dir.toString());
      // The shipped systems with a CSV Directory: two homes compare their target files, which an
      // LDAP directory's generated anchors (entryUUID) would tell apart.
      env.put("JIMFLOW_DATA_PLANE_CONFIG", E2eEnvironment.csvConnectedSystems().toString());
      return env;
    }

    Connection connect() throws Exception {
      return store.connect();
    }

    /**
     * What the runs leave behind, independent of generated ids: the metaverse's objects, each
     * system's connector space, and the two target files, each sorted.
     */
    Map<String, List<String>> identities() throws Exception {
      Map<String, List<String>> state = new LinkedHashMap<>();
      try (Connection store = connect();
          Statement sql = store.createStatement()) {
        state.put("metaverse", rows(sql, "select object_type, attributes from mvo"));
        state.put(
            "connector spaces",
            rows(
                sql,
                "select connected_system_id, anchor, attributes, state, mvo_id is null from cso"));
        state.put(
            "pending exports",
            rows(sql, "select connected_system_id, change_type, status from pending_export"));
      }
      for (String target : List.of("directory.csv", "badges.csv")) {
        try (Stream<String> lines = Files.lines(dir.resolve("data").resolve(target))) {
          state.put(target, lines.sorted().toList());
        }
      }
      return state;
    }

    private static List<String> rows(Statement sql, String query) throws Exception {
      List<String> rows = new ArrayList<>();
      try (ResultSet r = sql.executeQuery(query)) {
        int columns = r.getMetaData().getColumnCount();
        while (r.next()) {
          StringBuilder row = new StringBuilder();
          for (int c = 1; c <= columns; c++) {
            row.append(r.getString(c)).append('|');
          }
          rows.add(row.toString());
        }
      }
      rows.sort(null);
      return rows;
    }
  }
}
