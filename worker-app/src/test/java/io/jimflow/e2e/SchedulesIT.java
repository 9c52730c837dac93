package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.cli.JimflowCli;
import io.jimflow.client.ConnectionSettings;
import io.jimflow.client.ExecutionSummary;
import io.jimflow.client.JimflowClient;
import io.jimflow.schedule.Canceller;
import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.deploy.DesiredSchedule;
import io.jimflow.schedule.deploy.ScheduleMapper;
import io.jimflow.schedule.file.ScheduleDefinitions;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleActionExecutionStartWorkflow;
import io.temporal.client.schedules.ScheduleDescription;
import io.temporal.client.schedules.ScheduleIntervalSpec;
import io.temporal.client.schedules.ScheduleOptions;
import io.temporal.client.schedules.ScheduleSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * Temporal Schedules and manual runs against a real dev server and a real worker process, driven
 * through the {@code jimflow} CLI as an operator would.
 */
@ExtendWith(TemporalDevServerExtension.class)
class SchedulesIT {

  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<String> createdSchedules = new ArrayList<>();
  private E2eEnvironment env;

  @AfterEach
  void deleteTheSchedulesOfTheTest() {
    for (String id : createdSchedules) {
      try {
        env.scheduleClient().getHandle(id).delete();
      } catch (RuntimeException alreadyGone) {
        // deleted by the test itself
      }
    }
  }

  @Test
  void applyCreatesUpdatesAndDeletesAndASecondApplyChangesNothing(E2eEnvironment env)
      throws Exception {
    this.env = env;
    createdSchedules.addAll(List.of("e2e-apply-nightly", "e2e-apply-manual"));
    // apply also deploys the built-in schedules (housekeeping, history retention).
    createdSchedules.addAll(io.jimflow.schedule.deploy.BuiltInSchedules.IDS);
    Path file = env.newDirectory("apply").resolve("schedules.yaml");
    Files.writeString(
        file,
        """
        schedules:
          - id: e2e-apply-nightly
            name: E2E Nightly
            enabled: false
            trigger: {cron: "0 2 * * *", timezone: Europe/London}
            steps: [{index: 0, name: Count, executable: {path: count.sh, args: ["1", "0"]}}]
          - id: e2e-apply-manual
            steps: [{index: 0, name: Count, executable: {path: count.sh, args: ["1", "0"]}}]
        """);

    Cli plan = cli("schedules", "plan", "-f", file.toString());
    assertThat(plan.exit).as(plan.err).isZero();
    assertThat(plan.out).contains("+ create e2e-apply-manual", "+ create e2e-apply-nightly");
    assertThat(env.scheduleClient().listSchedules().map(s -> s.getScheduleId()).toList())
        .as("plan changes nothing")
        .doesNotContain("e2e-apply-nightly");

    Cli apply = cli("schedules", "apply", "-f", file.toString());
    assertThat(apply.exit).as(apply.err).isZero();
    assertThat(apply.out).contains("+ create e2e-apply-manual", "+ create e2e-apply-nightly");

    Cli again = cli("schedules", "apply", "-f", file.toString());
    assertThat(again.exit).isZero();
    assertThat(again.out).contains("No changes: 4 schedules are up to date.");

    ScheduleDescription nightly = env.scheduleClient().getHandle("e2e-apply-nightly").describe();
    assertThat(nightly.getSchedule().getState().isPaused()).isTrue();
    assertThat(nightly.getSchedule().getSpec().getTimeZoneName()).isEqualTo("Europe/London");
    assertThat(nightly.getInfo().getNextActionTimes()).isNotEmpty();

    Files.writeString(
        file,
        """
        schedules:
          - id: e2e-apply-nightly
            name: E2E Nightly
            trigger: {cron: "30 3 * * *", timezone: Europe/London}
            steps: [{index: 0, name: Count, executable: {path: count.sh, args: ["1", "0"]}}]
        """);
    Cli changed = cli("schedules", "apply", "-f", file.toString());
    assertThat(changed.out)
        .contains("~ update e2e-apply-nightly (spec, paused: true -> false)")
        .contains("- delete e2e-apply-manual");
    assertThat(cli("schedules", "plan", "-f", file.toString()).out).contains("No changes");

    Cli shipped =
        cli(
            "schedules",
            "plan",
            "-f",
            env.projectHome().resolve("config/schedules.yaml").toString());
    assertThat(shipped.exit).as(shipped.err).isZero();
    assertThat(shipped.out).contains("+ create nightly-hr-sync", "+ create script-demo");

    JsonNode listed = listedSchedule("e2e-apply-nightly");
    assertThat(listed.get("paused").asBoolean()).isFalse();
    assertThat(listed.get("trigger").asText()).isEqualTo("cron \"30 3 * * *\"");
    assertThat(listed.get("timeZone").asText()).isEqualTo("Europe/London");
    assertThat(listed.get("nextRuns")).isNotEmpty();
  }

  @Test
  void aScheduleFiresByItselfSkipsOverlapsAndStopsWhilePaused(E2eEnvironment env) throws Exception {
    this.env = env;
    env.sharedWorker();
    String id = "e2e-every-5s";
    createdSchedules.add(id);
    ScheduleDefinition definition =
        definition(
            """
              - id: e2e-every-5s
                name: Every five seconds
                trigger: {every: {minutes: 1}}
                steps: [{index: 0, name: Count, executable: {path: count.sh, args: ["9", "1"]}}]
            """);
    // The file format counts in minutes; five seconds keeps the test short, so the spec is set
    // here.
    DesiredSchedule desired = ScheduleMapper.desired(definition);
    Schedule fast =
        Schedule.newBuilder(desired.schedule())
            .setSpec(
                ScheduleSpec.newBuilder()
                    .setIntervals(List.of(new ScheduleIntervalSpec(Duration.ofSeconds(5))))
                    .build())
            .build();
    env.scheduleClient()
        .createSchedule(
            id,
            fast,
            ScheduleOptions.newBuilder()
                .setMemo(Map.of(ScheduleMapper.MANAGED_MEMO, true))
                .build());

    awaitTrue(
        () -> describe(id).getInfo().getNumActions() >= 1, "the schedule started a run by itself");
    String firstRun = firstWorkflowId(describe(id));
    assertThat(firstRun).startsWith(id + "-");
    awaitTrue(
        () -> describe(id).getInfo().getNumActionsSkippedOverlap() >= 1,
        "a start was skipped while the first run was still going");

    try (JimflowClient client = client()) {
      ExecutionResult result = client.executions().awaitResult(firstRun);
      assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
      assertThat(result.scheduleId()).isEqualTo(id);
      assertThat(env.client().newUntypedWorkflowStub(firstRun).describe().getStaticSummary())
          .isEqualTo("Every five seconds · scheduled run");
      awaitTrue(
          () ->
              client.executions().list(id, ExecutionStatus.Complete, 10).stream()
                  .anyMatch(e -> e.workflowId().equals(firstRun)),
          "the scheduled run is found by its JimflowScheduleId and status");
    }

    // Proving that nothing happens needs time to pass: the two starts the schedule had due next
    // (its own times, not a guessed sleep) go by without an action.
    List<Instant> due = describe(id).getInfo().getNextActionTimes();
    assertThat(cli("schedules", "pause", id).out).contains("Paused " + id);
    long actionsWhenPaused = describe(id).getInfo().getNumActions();
    Instant secondDue = due.size() >= 2 ? due.get(1) : Instant.now().plus(Duration.ofSeconds(10));
    while (Instant.now().isBefore(secondDue.plusSeconds(1))) {
      assertThat(describe(id).getInfo().getNumActions())
          .as("the paused schedule started nothing")
          .isEqualTo(actionsWhenPaused);
      Thread.sleep(250);
    }
    assertThat(describe(id).getInfo().getNumActions()).isEqualTo(actionsWhenPaused);

    assertThat(cli("schedules", "resume", id).out).contains("Resumed " + id);
    awaitTrue(
        () -> describe(id).getInfo().getNumActions() > actionsWhenPaused,
        "the resumed schedule started again");
  }

  @Test
  void aCronScheduleFiringEveryMinuteAppliedFromAFileStartsAnExecutionByItselfWithin90Seconds(
      E2eEnvironment env) throws Exception {
    this.env = env;
    env.sharedWorker();
    String id = "e2e-cron-every-minute";
    createdSchedules.add(id);
    Path file = env.newDirectory("cron").resolve("schedules.yaml");
    Files.writeString(
        file,
        """
        scope: e2e-cron
        schedules:
          - id: e2e-cron-every-minute
            name: Every minute
            trigger: {cron: "* * * * *"}
            steps: [{index: 0, name: Count, executable: {path: count.sh, args: ["1", "0"]}}]
        """);
    Instant applied = Instant.now();

    Cli apply = cli("schedules", "apply", "-f", file.toString());

    assertThat(apply.exit).as(apply.err).isZero();
    assertThat(apply.out).contains("+ create " + id);
    // The first minute boundary comes within 60 s of the apply; the rest is the server's and the
    // worker's pick-up.
    Duration limit = Duration.ofSeconds(90);
    Await.until(
        () -> describe(id).getInfo().getNumActions() >= 1,
        "the cron schedule started an execution by itself",
        limit.minus(Duration.between(applied, Instant.now())),
        Duration.ofMillis(500));
    String run = firstWorkflowId(describe(id));
    assertThat(run).startsWith(id + "-");
    assertThat(env.client().newUntypedWorkflowStub(run).describe().getStartTime())
        .isBefore(applied.plus(limit));
    assertThat(describe(id).getInfo().getRecentActions().get(0).getScheduledAt())
        .as("fired on a minute boundary")
        .satisfies(at -> assertThat(at.getEpochSecond() % 60).isZero());
    try (JimflowClient client = client()) {
      ExecutionResult result = client.executions().awaitResult(run);
      assertThat(result.status()).as(result.message()).isEqualTo(ExecutionStatus.Complete);
      assertThat(result.scheduleId()).isEqualTo(id);
    }
    assertThat(env.client().newUntypedWorkflowStub(run).describe().getStaticSummary())
        .isEqualTo("Every minute · scheduled run");
    assertThat(listedSchedule(id).get("trigger").asText()).isEqualTo("cron \"* * * * *\"");
  }

  @Test
  void triggerHonoursTheOverlapPolicyAndBackfillRunsMissedStarts(E2eEnvironment env)
      throws Exception {
    this.env = env;
    env.sharedWorker();
    String id = "e2e-trigger";
    createdSchedules.add(id);
    Path file = env.newDirectory("trigger").resolve("schedules.yaml");
    Files.writeString(
        file,
        """
        schedules:
          - id: e2e-trigger
            trigger: {cron: "0 3 1 1 *"}
            overlap: skip
            steps: [{index: 0, name: Count, executable: {path: count.sh, args: ["6", "1"]}}]
        """);
    assertThat(cli("schedules", "apply", "-f", file.toString()).exit).isZero();

    assertThat(cli("schedules", "trigger", id).exit).isZero();
    awaitTrue(() -> describe(id).getInfo().getNumActions() == 1, "the trigger started a run");
    assertThat(cli("schedules", "trigger", id).exit).isZero();
    awaitTrue(
        () -> describe(id).getInfo().getNumActionsSkippedOverlap() == 1,
        "the second trigger was skipped while the first run was open");
    try (JimflowClient client = client()) {
      assertThat(client.executions().awaitResult(firstWorkflowId(describe(id))).status())
          .isEqualTo(ExecutionStatus.Complete);
    }

    Cli backfill =
        cli(
            "schedules",
            "backfill",
            id,
            "--from",
            "2025-01-01T02:59:00Z",
            "--to",
            "2025-01-01T03:01:00Z");
    assertThat(backfill.exit).as(backfill.err).isZero();
    awaitTrue(
        () -> describe(id).getInfo().getNumActions() == 2, "the backfill ran the missed start");
    assertThat(describe(id).getInfo().getRecentActions())
        .anySatisfy(
            a -> assertThat(a.getScheduledAt()).isEqualTo(Instant.parse("2025-01-01T03:00:00Z")));

    JsonNode listed = listedSchedule(id);
    assertThat(listed.get("lastRunAt").asText()).isNotEmpty();
    assertThat(listed.get("trigger").asText()).isEqualTo("cron \"0 3 1 1 *\"");

    Cli fromDeployed = cli("start", id, "--wait");
    assertThat(fromDeployed.exit).as("a manual run of the deployed definition").isZero();
    assertThat(fromDeployed.out).startsWith(id + "/manual/").contains("[0] Count: Complete");

    try (JimflowClient client = client()) {
      String programmatic =
          client
              .executions()
              .start(
                  id,
                  new io.jimflow.schedule.ScheduleExecutionInput.Initiator(
                      io.jimflow.schedule.ScheduleExecutionInput.InitiatorType.ApiKey,
                      "e2e",
                      "E2E"),
                  false);
      assertThat(client.executions().awaitResult(programmatic).status())
          .isEqualTo(ExecutionStatus.Complete);
    }

    assertThat(cli("schedules", "delete", id).out).contains("Deleted " + id);
    assertThat(cli("schedules", "pause", id).exit).isEqualTo(JimflowCli.BAD_INPUT);
  }

  @Test
  void startWaitExitsZeroOnCompleteAndOneOtherwiseAndListingsFindRunsByStatus(E2eEnvironment env)
      throws Exception {
    this.env = env;
    env.sharedWorker();
    Path file = env.newDirectory("run").resolve("schedules.yaml");
    Files.writeString(
        file,
"""
schedules:
  - id: e2e-run-ok
    steps:
      - {index: 0, name: First, executable: {path: count.sh, args: ["2", "0.1"]}}
      - {index: 1, name: Second, executable: {path: count.sh, args: ["2", "0.1"]}}
  - id: e2e-run-fail
    steps:
      - {index: 0, name: Broken, executable: {path: fail.sh, args: ["3", "boom"]}, retry: {maximumAttempts: 1}}
      - {index: 1, name: Never, executable: {path: count.sh, args: ["1", "0"]}}
  - id: e2e-run-slow
    steps:
      - {index: 0, name: Slow, executable: {path: count.sh, args: ["30", "1"]}}
""");

    Cli ok = cli("start", "e2e-run-ok", "-f", file.toString(), "--wait");
    assertThat(ok.exit).as(ok.out + ok.err).isZero();
    assertThat(ok.out)
        .contains("[0] First: Running (attempt 1)", "[0] First: Complete", "[1] Second: Complete")
        .contains("ended Complete");
    assertThat(ok.out.indexOf("[0] First: Complete"))
        .isLessThan(ok.out.indexOf("[1] Second: Complete"));

    Cli failed = cli("start", "e2e-run-fail", "-f", file.toString(), "--wait");
    assertThat(failed.exit).isEqualTo(JimflowCli.ENDED_BADLY);
    assertThat(failed.out)
        .contains("[0] Broken: FailedWithError", "[1] Never: Skipped", "ended Failed");
    String failedId = failed.out.lines().findFirst().orElseThrow();

    Cli demo =
        cli(
            "start",
            "script-demo",
            "-f",
            env.projectHome().resolve("config/schedules.yaml").toString(),
            "--wait");
    assertThat(demo.exit)
        .as("the shipped example tolerates one failure")
        .isEqualTo(JimflowCli.ENDED_BADLY);
    assertThat(demo.out)
        .contains("Flaky Check: FailedWithError", "Wrap Up: Complete", "ended CompleteWithError");

    Cli slow = cli("start", "e2e-run-slow", "-f", file.toString());
    String slowId = slow.out.strip();
    try (JimflowClient client = client()) {
      awaitTrue(
          () ->
              client.executions().list("e2e-run-slow", ExecutionStatus.InProgress, 5).stream()
                  .anyMatch(e -> e.workflowId().equals(slowId)),
          "the slow run is listed as in progress");
      Cli refused = cli("start", "e2e-run-slow", "-f", file.toString(), "--exclusive");
      assertThat(refused.exit).isEqualTo(JimflowCli.ENDED_BADLY);
      assertThat(refused.err).contains("already has an open execution (" + slowId + ")");

      assertThat(cli("executions", "cancel", slowId).exit).isZero();
      ExecutionResult cancelled = client.executions().awaitResult(slowId);
      assertThat(cancelled.status()).isEqualTo(ExecutionStatus.Cancelled);
      String user = System.getProperty("user.name");
      String canceller =
          Canceller.describe(
              Canceller.of(Canceller.reason(new Initiator(InitiatorType.User, user, user)))
                  .orElseThrow());
      assertThat(cancelled.message()).startsWith("Cancelled by " + canceller + " during");
      ExecutionRecord stored = client.executions().stored(slowId);
      assertThat(stored.message()).isEqualTo(cancelled.message());
      assertThat(Canceller.describe(stored.cancelledBy())).isEqualTo(canceller);
      assertThat(stored.endedAt()).isNotNull();
      Cli again = cli("executions", "cancel", slowId);
      assertThat(again.exit).isEqualTo(JimflowCli.BAD_INPUT);
      assertThat(again.err.strip())
          .isEqualTo("jimflow: cannot cancel " + slowId + ": it ended Cancelled");

      awaitTrue(
          () ->
              client.executions().list("e2e-run-fail", ExecutionStatus.Failed, 5).stream()
                  .map(ExecutionSummary::workflowId)
                  .anyMatch(failedId::equals),
          "the failed run is listed as Failed");
    }
    Cli listed =
        cli("executions", "list", "--schedule", "e2e-run-fail", "--status", "Failed", "--json");
    assertThat(
            find(JSON.readTree(listed.out).get("executions"), "workflowId", failedId)
                .get("status")
                .asText())
        .isEqualTo("Failed");
    assertThat(
            cli("executions", "list", "--schedule", "e2e-run-ok", "--status", "Failed", "--json")
                .out)
        .doesNotContain("e2e-run-ok/manual");

    JsonNode shown = JSON.readTree(cli("executions", "show", failedId, "--json").out);
    assertThat(shown.get("status").asText()).isEqualTo("Failed");
    assertThat(shown.get("steps").get(0).get("name").asText()).isEqualTo("Broken");
    assertThat(shown.get("steps").get(0).get("status").asText()).isEqualTo("FailedWithError");
    assertThat(shown.get("steps").get(0).get("attempts").asInt()).isEqualTo(1);
    assertThat(shown.get("steps").get(0).get("message").asText()).contains("3");
    assertThat(shown.get("steps").get(1).get("status").asText()).isEqualTo("Skipped");
  }

  private Cli cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = JimflowCli.commandLine();
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    List<String> full = new ArrayList<>(List.of(args));
    full.addAll(List.of("--address", env.target(), "--namespace", env.namespace()));
    int exit = cli.execute(full.toArray(String[]::new));
    return new Cli(exit, out.toString(), err.toString());
  }

  private JimflowClient client() {
    return JimflowClient.connect(
        new ConnectionSettings(env.target(), env.namespace(), null, null, null));
  }

  private ScheduleDescription describe(String id) {
    return env.scheduleClient().getHandle(id).describe();
  }

  private static String firstWorkflowId(ScheduleDescription d) {
    return ((ScheduleActionExecutionStartWorkflow)
            d.getInfo().getRecentActions().get(0).getAction())
        .getWorkflowId();
  }

  private static ScheduleDefinition definition(String schedule) {
    return ScheduleDefinitions.parse("schedules:\n" + schedule, "test").get(0);
  }

  /** The schedule as `schedules list --json` shows it; listings lag a moment behind a create. */
  private JsonNode listedSchedule(String id) throws Exception {
    Instant deadline = Instant.now().plus(PATIENCE);
    while (true) {
      JsonNode schedules = JSON.readTree(cli("schedules", "list", "--json").out).get("schedules");
      try {
        return find(schedules, "id", id);
      } catch (AssertionError notListedYet) {
        if (Instant.now().isAfter(deadline)) {
          throw notListedYet;
        }
        Thread.sleep(250);
      }
    }
  }

  private static JsonNode find(JsonNode array, String field, String value) {
    for (JsonNode node : array) {
      if (value.equals(node.get(field).asText())) {
        return node;
      }
    }
    throw new AssertionError("no element with " + field + " = " + value + " in " + array);
  }

  private static void awaitTrue(BooleanSupplier condition, String what)
      throws InterruptedException {
    Await.until(condition, what, PATIENCE, Duration.ofMillis(500));
  }

  private record Cli(int exit, String out, String err) {}
}
