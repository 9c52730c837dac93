package io.jimflow.e2e;

import static io.jimflow.e2e.ManualExecutions.TESTER;
import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.StepHeartbeat;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import io.jimflow.testing.TestPostgres;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowStub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * SqlScript steps on a real worker process: the worker's {@code sql-scripts.yaml} and secrets name
 * the connection, the step commits its script and reports its counts, a cancel stops a running
 * statement and rolls it back, and the connection's URL and password never enter the history.
 */
@ExtendWith(TemporalDevServerExtension.class)
class SqlScriptStepIT {

  /**
   * The connection's password: the tests' embedded PostgreSQL trusts local connections and takes
   * any, so it is a value no history may show; an external one's own password otherwise.
   */
  private static String password;

  private static String user;
  private static Path dir;
  private static String url;
  private static String namespace;

  @BeforeAll
  static void startWorker(E2eEnvironment env) throws Exception {
    dir = env.newDirectory("sql-scripts");
    Files.createDirectories(dir.resolve("config"));
    Files.createDirectories(dir.resolve("scripts/nightly"));
    Files.writeString(
        dir.resolve("config/sql-scripts.yaml"),
        "root: ../scripts\nconnections:\n  - name: reports\n");
    TestPostgres.Schema reports = TestPostgres.newSchema();
    url = reports.schemaUrl();
    user = reports.user();
    password = reports.password().isEmpty() ? "sql-" + UUID.randomUUID() : reports.password();
    try (Connection connection = DriverManager.getConnection(url, user, password);
        Statement statement = connection.createStatement()) {
      statement.execute("create table person (id int primary key, title varchar(50))");
    }
    namespace = env.newNamespace("sql-scripts");
    env.startWorker(
        "sql-scripts",
        Map.of(
            "TEMPORAL_NAMESPACE", namespace,
            "JIMFLOW_STEPS_SQL_SCRIPTS_CONFIG", dir.resolve("config/sql-scripts.yaml").toString(),
            "JIMFLOW_SECRET_SQL_REPORTS_URL", url,
            "JIMFLOW_SECRET_SQL_REPORTS_USER", user,
            "JIMFLOW_SECRET_SQL_REPORTS_PASSWORD", password));
  }

  @Test
  void aScriptIsCommittedWithItsCountsAndTheHistoryHoldsNoCredentials(E2eEnvironment env)
      throws Exception {
    Files.writeString(
        dir.resolve("scripts/nightly/titles.sql"),
        """
        insert into person values (1, 'Clerk'), (2, 'Clerk'), (3, 'Clerk');
        update person set title = 'Manager' where id = 2;
        """);
    WorkflowClient client = env.client(namespace);
    ScheduleDefinition definition =
        aSchedule("sql-titles")
            .named("SQL titles")
            .with(aStep(0, "titles").sqlScript("reports", "nightly/titles.sql"))
            .definition();
    String id = "sql-titles/" + UUID.randomUUID();

    ExecutionResult result =
        WorkflowStub.fromTyped(ManualExecutions.start(client, id, definition, TESTER))
            .getResult(120, TimeUnit.SECONDS, ExecutionResult.class);

    StepOutcome step = result.steps().get(0);
    assertThat(step.status()).as(step.message()).isEqualTo(StepStatus.Complete);
    assertThat(step.stats()).containsEntry("statements", 2L).containsEntry("updatedRows", 4L);
    assertThat(step.message()).isEqualTo("2 statements, 4 rows updated, committed on 'reports'");
    assertThat(count("select count(*) from person where title = 'Manager'")).isEqualTo(1);
    String history = readable(client.fetchHistory(id).toJson(true));
    assertThat(history).contains("nightly/titles.sql").doesNotContain(password).doesNotContain(url);
  }

  @Test
  void aCancelStopsTheRunningStatementAndRollsTheScriptBack(E2eEnvironment env) throws Exception {
    Files.writeString(
        dir.resolve("scripts/slow.sql"),
        """
        insert into person values (100, 'Temp');
        select pg_sleep(600);
        """);
    WorkflowClient client = env.client(namespace);
    ScheduleDefinition definition =
        aSchedule("sql-slow")
            .named("SQL slow")
            .with(aStep(0, "slow").withStepDefaults().sqlScript("reports", "slow.sql"))
            .definition();
    String id = "sql-slow/" + UUID.randomUUID();
    WorkflowStub stub =
        WorkflowStub.fromTyped(ManualExecutions.start(client, id, definition, TESTER));
    PendingHeartbeats.await(
        client, id, StepHeartbeat.class, h -> true, "a first heartbeat", Duration.ofSeconds(60));

    long cancelledAt = System.nanoTime();
    stub.cancel();
    WorkflowFailedException failure =
        catchThrowableOfType(
            () -> stub.getResult(60, TimeUnit.SECONDS, Object.class),
            WorkflowFailedException.class);
    Duration stoppedAfter = Duration.ofNanos(System.nanoTime() - cancelledAt);

    assertThat(failure).isNotNull();
    ExecutionProgress progress = stub.query("progress", ExecutionProgress.class);
    assertThat(progress.status()).isEqualTo(ExecutionStatus.Cancelled);
    assertThat(progress.steps().get(0).status()).isEqualTo(StepStatus.Cancelled);
    assertThat(stoppedAfter)
        .as("a cancel reaches the statement")
        .isLessThan(Duration.ofSeconds(30));
    assertThat(count("select count(*) from person where id = 100")).as("rolled back").isZero();
  }

  /** The history's JSON with every payload's data decoded and appended. */
  private static String readable(String json) {
    StringBuilder text = new StringBuilder(json);
    Matcher data = PAYLOAD_DATA.matcher(json.replace("\\u003d", "="));
    while (data.find()) {
      text.append('\n').append(new String(Base64.getDecoder().decode(data.group(1)), UTF_8));
    }
    return text.toString();
  }

  private static final Pattern PAYLOAD_DATA = Pattern.compile("\"data\": \"([A-Za-z0-9+/=]+)\"");

  private static long count(String sql) throws Exception {
    try (Connection connection = DriverManager.getConnection(url, user, password);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
