package io.jimflow.schedule.steps;

import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.StepActivities;
import io.jimflow.schedule.StepDefinition.SqlScriptStep;
import io.jimflow.schedule.StepFailures;
import io.jimflow.schedule.StepHeartbeat;
import io.jimflow.schedule.StepRunRequest;
import io.jimflow.schedule.StepRunResult;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.activities.StepActivitiesImpl;
import io.jimflow.schedule.activities.StepActivitiesImplTest;
import io.jimflow.secrets.activities.WorkerSecrets;
import io.temporal.activity.ActivityOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.testing.TestActivityEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a SqlScript step does on a real database, run by {@code SqlScriptRunnerPostgresTest}, each
 * test on a schema of its own: one transaction, counts, a failing statement named by its line, the
 * attempt's timeout and the step's cancellation reaching the running statement.
 */
abstract class SqlScriptRunnerContract {

  @TempDir Path root;
  TestActivityEnvironment env;
  final List<StepHeartbeat> heartbeats = new CopyOnWriteArrayList<>();

  /** The database's JDBC URL, user and password. */
  abstract String url();

  abstract String user();

  abstract String password();

  /** A statement that runs for a minute or more; {@code marker} is part of its text. */
  abstract String longStatement(String marker);

  /** Part of the database's message for a duplicate primary key. */
  abstract String duplicateKeyMessage();

  /** How many sessions other than the caller's run a statement containing {@code marker}. */
  long runningStatements(String marker) throws SQLException {
    return 0;
  }

  @BeforeEach
  void startEnvironment() {
    env = TestActivityEnvironment.newInstance();
    env.setActivityHeartbeatListener(StepHeartbeat.class, heartbeats::add);
    env.registerActivitiesImplementations(
        new StepActivitiesImpl(
            new StepActivitiesImplTest.FakeRunProfileExecutor(),
            new ExecutableRunner(root, ProgramAllowList.anyBelowRoot(), Set.of()),
            runner(),
            secrets()));
  }

  @AfterEach
  void stopEnvironment() {
    env.close();
  }

  SqlScriptRunner runner() {
    return SqlScriptRunner.of(
        new SqlScriptsConfig(root.resolve("sql-scripts.yaml"), root, Set.of("db")), secrets());
  }

  WorkerSecrets secrets() {
    return new WorkerSecrets(
        Optional.empty(),
        Map.of(
            "JIMFLOW_SECRET_SQL_DB_URL", url(),
            "JIMFLOW_SECRET_SQL_DB_USER", user(),
            "JIMFLOW_SECRET_SQL_DB_PASSWORD", password()));
  }

  @Test
  void aScriptCommitsEveryStatementAndReportsStatementsAndUpdatedRows() throws Exception {
    script(
        "tidy.sql",
        """
        -- people for the reports
        create table person (id int primary key, name varchar(50), active boolean);
        insert into person values (1, 'Ann; the first', true), (2, 'Bob', true), (3, 'Cy', true);
        update person set active = false where id >= 2;
        select count(*) from person;
        """);

    StepRunResult result = activities().runStep(request("tidy.sql"));

    assertThat(result.status()).isEqualTo(StepStatus.Complete);
    assertThat(result.stats()).containsEntry("statements", 4L).containsEntry("updatedRows", 5L);
    assertThat(result.message()).isEqualTo("4 statements, 5 rows updated, committed on 'db'");
    assertThat(query("select count(*) from person where active")).isEqualTo(1);
    assertThat(query("select count(*) from person where name = 'Ann; the first'")).isEqualTo(1);
  }

  @Test
  void aFailingStatementRollsBackTheStatementsBeforeItAndNamesItsLineAndTheDatabasesMessage()
      throws Exception {
    update("create table person (id int primary key)");
    script(
        "load.sql",
        """
        insert into person values (1);
        insert into person values (2);

        insert into person values (1);
        insert into person values (3);
        """);

    ApplicationFailure failure = failureOf(() -> activities().runStep(request("load.sql")));

    assertThat(failure.getType()).isEqualTo(StepFailures.SQL_SCRIPT_FAILED);
    assertThat(failure.isNonRetryable()).as("a duplicate key is not cured by a retry").isTrue();
    assertThat(failure.getOriginalMessage())
        .startsWith("load.sql:4: statement 3 of 4 failed on 'db': ")
        .contains(duplicateKeyMessage())
        .endsWith("rolled back, nothing was committed");
    assertThat(query("select count(*) from person")).as("nothing committed").isZero();
  }

  @Test
  void aStatementStillRunningWhenTheAttemptsTimeRunsOutIsCancelledAndRolledBack() throws Exception {
    update("create table person (id int primary key)");
    String marker = "timeout_" + UUID.randomUUID().toString().replace("-", "");
    script("slow.sql", "insert into person values (1);\n" + longStatement(marker) + ";\n");

    long started = System.nanoTime();
    ApplicationFailure failure =
        catchThrowableOfType(
            ApplicationFailure.class,
            () ->
                runner()
                    .run(
                        new SqlScriptStep("db", "slow.sql"),
                        new RecordingProgress(null),
                        Duration.ofSeconds(2)));

    assertThat(failure.getType()).isEqualTo(StepFailures.SQL_SCRIPT_TIMED_OUT);
    assertThat(failure.getOriginalMessage())
        .startsWith("slow.sql:2: statement 2 of 2 was cancelled when the attempt's time ran out");
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .as("stopped long before the statement's minute")
        .isLessThan(Duration.ofSeconds(30));
    assertThat(query("select count(*) from person")).as("nothing committed").isZero();
    assertThat(runningStatements(marker)).as("the database runs it no more").isZero();
  }

  @Test
  void cancellingTheStepCancelsItsRunningStatementAndRollsBack() throws Exception {
    update("create table person (id int primary key)");
    String marker = "cancel_" + UUID.randomUUID().toString().replace("-", "");
    script("slow.sql", "insert into person values (1);\n" + longStatement(marker) + ";\n");

    CompletableFuture<Throwable> outcome =
        CompletableFuture.supplyAsync(
            () ->
                catchThrowableOfType(
                    RuntimeException.class, () -> activities().runStep(request("slow.sql"))));
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (heartbeats.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    env.requestCancelActivity();

    Throwable failure = outcome.get(60, TimeUnit.SECONDS);
    assertThat(failure instanceof CanceledFailure || failure.getCause() instanceof CanceledFailure)
        .as("ended by cancellation: %s", failure)
        .isTrue();
    assertThat(query("select count(*) from person")).as("nothing committed").isZero();
    assertThat(runningStatements(marker)).as("the database runs it no more").isZero();
  }

  StepActivities activities() {
    return env.newActivityStub(
        StepActivities.class,
        ActivityOptions.newBuilder()
            .setStartToCloseTimeout(Duration.ofSeconds(120))
            .setHeartbeatTimeout(Duration.ofSeconds(5))
            .build());
  }

  static StepRunRequest request(String path) {
    return new StepRunRequest(
        0,
        "exec-1",
        "nightly",
        new Initiator(InitiatorType.User, "u", "User"),
        aStep(0, "step").withStepDefaults().sqlScript("db", path).build());
  }

  static ApplicationFailure failureOf(Runnable run) {
    ActivityFailure failure = catchThrowableOfType(ActivityFailure.class, run::run);
    assertThat(failure).as("the step failed").isNotNull();
    return (ApplicationFailure) failure.getCause();
  }

  void script(String name, String text) throws Exception {
    Path file = root.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  void update(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url(), user(), password());
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  long query(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url(), user(), password());
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
