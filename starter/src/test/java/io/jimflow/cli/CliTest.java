package io.jimflow.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.jimflow.cli.output.Json;
import io.jimflow.client.ConnectionSettings;
import io.jimflow.client.ExecutionEndedException;
import io.jimflow.client.JimflowClient;
import io.jimflow.client.JimflowConnectionException;
import io.jimflow.common.TaskQueues;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.testing.JimflowTestEnvironment;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CliTest {

  private static final String SCHEDULES =
      """
      schedules:
        - id: scripts
          name: Scripts
          steps:
            - {index: 0, name: Prepare, executable: {path: count.sh}}
            - {index: 1, name: Count, executable: {path: count.sh}}
        - id: tolerant
          steps:
            - {index: 0, name: fail-check, executable: {path: fail.sh}, continueOnFailure: true}
            - {index: 1, name: Count, executable: {path: count.sh}}
        - id: strict
          steps:
            - {index: 0, name: fail-check, executable: {path: fail.sh}}
            - {index: 1, name: Count, executable: {path: count.sh}}
        - id: wide
          steps:
            - {index: 0, name: Count, executable: {path: count.sh}}
            - {index: 0, name: fail-check, executable: {path: fail.sh}, continueOnFailure: true}
            - {index: 1, name: Wrap Up, executable: {path: count.sh}}
        - id: approval
          steps:
            - {index: 0, name: held, executable: {path: count.sh}}
        - id: slow
          steps:
            - {index: 0, name: hang, executable: {path: count.sh}}
            - {index: 1, name: After, executable: {path: count.sh}}
      """;

  @TempDir Path dir;

  private TestWorkflowEnvironment env;
  private Path schedulesFile;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private final List<ConnectionSettings> connections = new ArrayList<>();

  @BeforeEach
  void startTemporal() throws Exception {
    env = JimflowTestEnvironment.newEnvironment();
    Worker worker = JimflowTestEnvironment.newWorker(env, TaskQueues.SCHEDULES);
    worker.registerWorkflowImplementationTypes(FakeScheduleExecution.class);
    env.start();
    schedulesFile = dir.resolve("schedules.yaml");
    Files.writeString(schedulesFile, SCHEDULES);
  }

  @AfterEach
  void stopTemporal() {
    env.close();
  }

  @Test
  void startWaitPrintsEveryStepAndExitsZeroWhenTheExecutionIsComplete() {
    int exit = cli("start", "scripts", "-f", schedulesFile.toString(), "--wait");

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString())
        .containsPattern("(?m)^scripts/manual/[0-9a-f]{8}$")
        .contains("  [0] Prepare: Complete", "  [1] Count: Complete")
        .containsPattern("Execution scripts/manual/[0-9a-f]{8} ended Complete\\.");
  }

  @Test
  void startWaitExitsOneWhenTheExecutionFailsAndSaysWhichStepFailed() {
    int exit = cli("start", "strict", "-f", schedulesFile.toString(), "--wait");

    assertThat(exit).isEqualTo(JimflowCli.ENDED_BADLY);
    assertThat(out.toString())
        .contains("  [0] fail-check: FailedWithError after 2 attempts - exit code 3: it broke")
        .contains("  [1] Count: Skipped")
        .contains("ended Failed: step 'fail-check' failed: exit code 3: it broke");
  }

  @Test
  void startWaitExitsOneWhenAFailureWasTolerated() {
    int exit = cli("start", "tolerant", "-f", schedulesFile.toString(), "--wait");

    assertThat(exit).isEqualTo(JimflowCli.ENDED_BADLY);
    assertThat(out.toString())
        .contains("  [1] Count: Complete")
        .contains("ended CompleteWithError");
  }

  @Test
  void startWithoutWaitPrintsOnlyTheWorkflowIdAndExitsZero() {
    int exit = cli("start", "scripts", "-f", schedulesFile.toString());

    assertThat(exit).isZero();
    assertThat(out.toString().strip()).matches("scripts/manual/[0-9a-f]{8}");
  }

  @Test
  void startOfAScheduleThatIsNotInTheFileExitsTwo() {
    int exit = cli("start", "nope", "-f", schedulesFile.toString());

    assertThat(exit).isEqualTo(JimflowCli.BAD_INPUT);
    assertThat(err.toString()).contains("schedule nope is not in " + schedulesFile);
  }

  @Test
  void executionsShowJsonHasTheStatusAndEveryStepWithIndexNameStatusAttemptsAndMessage()
      throws Exception {
    cli("start", "strict", "-f", schedulesFile.toString(), "--wait");
    String id = firstLine(out.toString());
    out.getBuffer().setLength(0);

    int exit = cli("executions", "show", id, "--json");

    assertThat(exit).as(err.toString()).isZero();
    JsonNode json = Json.mapper().readTree(out.toString());
    assertThat(json.get("status").asText()).isEqualTo("Failed");
    assertThat(json.get("workflowId").asText()).isEqualTo(id);
    JsonNode first = json.get("steps").get(0);
    assertThat(first.get("index").asInt()).isZero();
    assertThat(first.get("name").asText()).isEqualTo("fail-check");
    assertThat(first.get("status").asText()).isEqualTo("FailedWithError");
    assertThat(first.get("attempts").asInt()).isEqualTo(2);
    assertThat(first.get("message").asText()).isEqualTo("exit code 3: it broke");
    assertThat(json.get("steps").get(1).get("status").asText()).isEqualTo("Skipped");
  }

  @Test
  void aCancelledExecutionShowsCancelledWithTheRunningStepCancelledAndTheRestSkipped()
      throws Exception {
    cli("start", "slow", "-f", schedulesFile.toString());
    String id = firstLine(out.toString());
    out.getBuffer().setLength(0);

    assertThat(cli("executions", "cancel", id)).isZero();
    assertThat(out.toString()).contains("Cancellation requested for " + id);
    out.getBuffer().setLength(0);
    env.getWorkflowClient()
        .newUntypedWorkflowStub(id)
        .getResultAsync(Object.class)
        .handle((r, e) -> null)
        .get();

    assertThat(cli("executions", "show", id, "--json")).as(err.toString()).isZero();
    JsonNode json = Json.mapper().readTree(out.toString());
    assertThat(json.get("status").asText()).isEqualTo("Cancelled");
    assertThat(json.get("steps").get(0).get("status").asText()).isEqualTo("Cancelled");
    assertThat(json.get("steps").get(1).get("status").asText()).isEqualTo("Skipped");
  }

  @Test
  void cancellingAFinishedExecutionExitsTwoWithOneLineAndChangesNothing() throws Exception {
    cli("start", "scripts", "-f", schedulesFile.toString(), "--wait");
    String complete = firstLine(out.toString());
    out.getBuffer().setLength(0);
    cli("start", "strict", "-f", schedulesFile.toString(), "--wait");
    String failed = firstLine(out.toString());
    out.getBuffer().setLength(0);

    for (String[] ended : new String[][] {{complete, "Complete"}, {failed, "Failed"}}) {
      err.getBuffer().setLength(0);

      int exit = cli("executions", "cancel", ended[0]);

      assertThat(exit).isEqualTo(JimflowCli.BAD_INPUT);
      assertThat(err.toString().strip().lines())
          .containsExactly("jimflow: cannot cancel " + ended[0] + ": it ended " + ended[1]);
      assertThat(out.toString()).doesNotContain("Cancellation requested");
      assertThat(
              env.getWorkflowClient().fetchHistory(ended[0]).getHistory().getEventsList().stream()
                  .map(HistoryEvent::getEventType))
          .as("no cancel request reached Temporal")
          .doesNotContain(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED);
      assertThat(cli("executions", "show", ended[0], "--json")).isZero();
      assertThat(Json.mapper().readTree(out.toString()).get("status").asText()).isEqualTo(ended[1]);
      out.getBuffer().setLength(0);
    }
  }

  @Test
  void theClientRefusesToCancelAFinishedExecutionWithATypedException() {
    cli("start", "scripts", "-f", schedulesFile.toString(), "--wait");
    String id = firstLine(out.toString());
    JimflowClient client =
        new JimflowClient(
            env.getWorkflowClient(), ScheduleClient.newInstance(env.getWorkflowServiceStubs()));

    ExecutionEndedException refused =
        catchThrowableOfType(ExecutionEndedException.class, () -> client.executions().cancel(id));

    assertThat(refused.workflowId()).isEqualTo(id);
    assertThat(refused.status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(refused).hasMessage("cannot cancel " + id + ": it ended Complete");
  }

  @Test
  void executionsShowListsAGroupsFailuresFirstInTextAndJson() throws Exception {
    cli("start", "wide", "-f", schedulesFile.toString(), "--wait");
    String id = firstLine(out.toString());
    out.getBuffer().setLength(0);

    assertThat(cli("executions", "show", id)).as(err.toString()).isZero();
    assertThat(out.toString())
        .containsPattern(
            "(?s)\\n0\\s+fail-check\\s+FailedWithError.*\\n0\\s+Count\\s+Complete"
                + ".*\\n1\\s+Wrap Up\\s+Complete");
    out.getBuffer().setLength(0);

    assertThat(cli("executions", "show", id, "--json")).isZero();
    JsonNode steps = Json.mapper().readTree(out.toString()).get("steps");
    assertThat(steps.findValuesAsText("name")).containsExactly("fail-check", "Count", "Wrap Up");
  }

  @Test
  void executionsShowPrintsAStepTableForPeople() {
    cli("start", "scripts", "-f", schedulesFile.toString(), "--wait");
    String id = firstLine(out.toString());
    out.getBuffer().setLength(0);

    assertThat(cli("executions", "show", id)).isZero();
    assertThat(out.toString())
        .contains("Status:   Complete")
        .containsPattern("(?m)^INDEX\\s+STEP\\s+STATUS\\s+ATTEMPTS\\s+MESSAGE$")
        .containsPattern("(?m)^0\\s+Prepare\\s+Complete\\s+1\\s+done$");
  }

  @Test
  void aStepAwaitingApprovalIsShownAndApprovedFromTheCliWhichLearnsAtOnceWhatWasRefused()
      throws Exception {
    cli("start", "approval", "-f", schedulesFile.toString());
    String id = firstLine(out.toString());
    awaitShown(id, "AwaitingApproval");
    // The table shows the message's first line; below it, the held step's whole message.
    assertThat(out.toString())
        .containsPattern(
            "(?m)^0\\s+held\\s+AwaitingApproval\\s+1\\s+held: the export would delete 600 of 1000 …$")
        .contains(
            "Step 'held' awaits approval:\n"
                + "  held: the export would delete 600 of 1000\n"
                + "  - Update E1: title 'Engineer' -> 'Architect'");

    out.getBuffer().setLength(0);
    assertThat(cli("executions", "approve", id, "--step", "nope", "--reason", "fine"))
        .isEqualTo(JimflowCli.BAD_INPUT);
    assertThat(err.toString())
        .contains("execution " + id + " refused the decision: no step named 'nope' awaits approval")
        .doesNotContain("Exception");
    err.getBuffer().setLength(0);
    assertThat(cli("executions", "reject", id, "--step", "held", "--reason", "x".repeat(1_001)))
        .isEqualTo(JimflowCli.BAD_INPUT);
    assertThat(err.toString()).contains("a reason must be given on one line");

    assertThat(cli("executions", "approve", id, "--step", "held", "--reason", "titles redone"))
        .as(err.toString())
        .isZero();
    String user = System.getProperty("user.name");
    assertThat(out.toString())
        .contains(id + ": step 'held' approved by " + user + ": titles redone.");
    env.getWorkflowClient().newUntypedWorkflowStub(id).getResult(Object.class);
    out.getBuffer().setLength(0);
    assertThat(cli("executions", "show", id, "--json")).isZero();
    JsonNode json = Json.mapper().readTree(out.toString());
    assertThat(json.get("steps").get(0).get("status").asText()).isEqualTo("Complete");
    assertThat(json.get("steps").get(0).get("message").asText())
        .isEqualTo("approved by " + user + ": titles redone");
  }

  private void awaitShown(String id, String text) throws InterruptedException {
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
    while (true) {
      out.getBuffer().setLength(0);
      cli("executions", "show", id);
      if (out.toString().contains(text)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("never shown " + text + "; last: " + out);
      }
      Thread.sleep(50);
    }
  }

  @Test
  void showingOrCancellingAnUnknownExecutionExitsTwo() {
    assertThat(cli("executions", "show", "no-such-run")).isEqualTo(JimflowCli.BAD_INPUT);
    assertThat(cli("executions", "cancel", "no-such-run")).isEqualTo(JimflowCli.BAD_INPUT);
    assertThat(err.toString()).contains("no execution with id no-such-run");
  }

  @Test
  void anInvalidSchedulesFileIsReportedInFullAndNothingIsSentToTemporal() throws Exception {
    Files.writeString(
        schedulesFile,
        """
        schedules:
          - id: a
            trigger: {cron: "0 2 * *"}
            steps:
              - {index: 0, name: X, powerShell: {script: x.ps1}}
        """);

    for (String command : List.of("apply", "plan")) {
      err.getBuffer().setLength(0);
      int exit = cli("schedules", command, "-f", schedulesFile.toString());

      assertThat(exit).isEqualTo(JimflowCli.BAD_INPUT);
      assertThat(err.toString())
          .contains(
              schedulesFile
                  + ":3: schedules[0].trigger.cron: '0 2 * *' is not a valid cron expression")
          .contains(
              schedulesFile
                  + ":5: schedules[0].steps[0].powerShell: powerShell steps are not supported yet")
          .contains("2 problems found; nothing was changed.");
    }
    assertThat(connections).as("never connected").isEmpty();
  }

  @Test
  void aMissingSchedulesFileExitsTwo() {
    int exit = cli("schedules", "plan", "-f", dir.resolve("missing.yaml").toString());

    assertThat(exit).isEqualTo(JimflowCli.BAD_INPUT);
    assertThat(err.toString()).contains("missing.yaml: file not found");
  }

  @Test
  void connectionOptionsReachTheClient() {
    CommandLine cli =
        JimflowCli.commandLine(
            settings -> {
              connections.add(settings);
              throw new JimflowConnectionException(
                  "Cannot reach Temporal at " + settings.address(), null);
            });
    cli.setOut(new PrintWriter(out)).setErr(new PrintWriter(err));

    int exit =
        cli.execute(
            "executions", "list", "--address", "temporal.example:7233", "--namespace", "hr");

    assertThat(exit).isEqualTo(JimflowCli.ENDED_BADLY);
    assertThat(connections)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.address()).isEqualTo("temporal.example:7233");
              assertThat(s.namespace()).isEqualTo("hr");
            });
    assertThat(err.toString()).contains("Cannot reach Temporal at temporal.example:7233");
  }

  @Test
  void anUnreachableServerIsOneLineNamingTheAddressAndHowToStartOne() {
    CommandLine cli = JimflowCli.commandLine();
    cli.setOut(new PrintWriter(out)).setErr(new PrintWriter(err));

    int exit = cli.execute("executions", "list", "--address", "127.0.0.1:1");

    assertThat(exit).isEqualTo(JimflowCli.ENDED_BADLY);
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString())
        .startsWith("jimflow: Cannot reach Temporal at 127.0.0.1:1")
        .contains("./jimflow dev");
  }

  @Test
  void usageErrorsExitTwo() {
    assertThat(cli("schedules")).isEqualTo(JimflowCli.BAD_INPUT);
    assertThat(cli("executions", "list", "--status", "Sideways")).isEqualTo(JimflowCli.BAD_INPUT);
    assertThat(cli("executions", "list", "--limit", "0")).isEqualTo(JimflowCli.BAD_INPUT);
    assertThat(cli("schedules", "backfill", "x", "--from", "yesterday", "--to", "2026-01-02"))
        .isEqualTo(JimflowCli.BAD_INPUT);
    assertThat(cli("schedules", "backfill", "x", "--from", "2026-01-02", "--to", "2026-01-01"))
        .isEqualTo(JimflowCli.BAD_INPUT);
    assertThat(cli("run")).isEqualTo(JimflowCli.BAD_INPUT);
    assertThat(err.toString()).contains("--from (2026-01-02T00:00:00Z) must be before --to");
  }

  @Test
  void statusNamesAreAcceptedInAnyCase() {
    CommandLine cli =
        JimflowCli.commandLine(
            settings -> {
              throw new JimflowConnectionException("stop here", null);
            });
    cli.setOut(new PrintWriter(out)).setErr(new PrintWriter(err));

    assertThat(cli.execute("executions", "list", "--status", "completewitherror"))
        .as("parsed, then stopped at connecting")
        .isEqualTo(JimflowCli.ENDED_BADLY);
  }

  @Test
  void theOldNameRunStillStartsAnExecution() {
    int exit = cli("run", "scripts", "-f", schedulesFile.toString(), "--wait");

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString()).contains("  [1] Count: Complete");
  }

  @Test
  void theHelpListsTheNewCommands() {
    assertThat(cli("--help")).isZero();
    assertThat(out.toString()).contains("schedules", "run", "executions");
  }

  private int cli(String... args) {
    CommandLine cli =
        JimflowCli.commandLine(
            settings -> {
              connections.add(settings);
              return new JimflowClient(
                  env.getWorkflowClient(),
                  ScheduleClient.newInstance(env.getWorkflowServiceStubs()));
            });
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private static String firstLine(String text) {
    return text.lines().findFirst().orElseThrow();
  }
}
