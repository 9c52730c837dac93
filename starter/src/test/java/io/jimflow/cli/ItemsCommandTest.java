package io.jimflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.client.JimflowClient;
import io.jimflow.common.TaskQueues;
import io.jimflow.testing.JimflowTestEnvironment;
import io.jimflow.workitem.FinishedInput;
import io.jimflow.workitem.RunInput;
import io.jimflow.workitem.RunResult;
import io.jimflow.workitem.WorkItemActivities;
import io.jimflow.workitem.WorkItemWorkflowImpl;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.testing.TestWorkflowEnvironment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ItemsCommandTest {

  private TestWorkflowEnvironment env;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private CommandLine cli;

  @BeforeEach
  void setUp() {
    env = JimflowTestEnvironment.newEnvironment();
    JimflowTestEnvironment.newWorker(env, TaskQueues.WORK_ITEMS)
        .registerWorkflowImplementationTypes(WorkItemWorkflowImpl.class);
    JimflowTestEnvironment.newWorker(env, TaskQueues.WORK_ITEM_RUNS)
        .registerActivitiesImplementations(
            new WorkItemActivities() {
              @Override
              public RunResult run(RunInput input) {
                throw new UnsupportedOperationException();
              }

              @Override
              public void finished(FinishedInput input) {}
            });
    env.start();
    cli =
        JimflowCli.commandLine(
            settings ->
                new JimflowClient(
                    env.getWorkflowClient(),
                    ScheduleClient.newInstance(env.getWorkflowServiceStubs())));
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  @Test
  void scheduleThenShowPrintsTheStateAndTheLog(@TempDir Path dir) throws Exception {
    Path state = dir.resolve("state.json");
    Files.writeString(state, "{\"path\":\"/data/big.csv\"}");
    int code =
        cli.execute(
            "items",
            "schedule",
            "--guid",
            "cli-1",
            "--kind",
            "line-count",
            "--state-file",
            state.toString(),
            "--start",
            "+PT2H",
            "--max-run-time",
            "PT10M");
    assertThat(code).as(err.toString()).isZero();

    code = cli.execute("items", "show", "cli-1");

    assertThat(code).isZero();
    assertThat(out.toString())
        .contains("work item cli-1 (line-count)")
        .contains("state:     WaitingForStart (waiting for start condition)")
        .contains("instance:  1, restarts used 0 of 3");
  }

  @Test
  void showWithJsonPrintsTheWholeView() {
    cli.execute("items", "schedule", "--guid", "cli-2", "--kind", "k", "--suspended");
    out.getBuffer().setLength(0);

    assertThat(cli.execute("items", "show", "cli-2", "--json")).isZero();

    assertThat(out.toString()).contains("\"state\" : \"Suspended\"").contains("\"log\" : [");
  }

  @Test
  void startTimeWakesASuspendedItemAndCancelRemovesIt() {
    cli.execute("items", "schedule", "--guid", "cli-3", "--kind", "k", "--suspended");
    assertThat(cli.execute("items", "start-time", "cli-3", "+PT1H")).isZero();
    assertThat(out.toString()).contains("state:     WaitingForStart");
    assertThat(cli.execute("items", "cancel", "cli-3", "--reason", "changed my mind")).isZero();
    assertThat(out.toString()).contains("changed my mind");
  }

  @Test
  void badInputExitsTwoAndSaysWhatIsWrong() {
    assertThat(
            cli.execute("items", "schedule", "--guid", "b", "--kind", "k", "--start", "tomorrow"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--start: 'tomorrow' is neither an ISO instant");

    assertThat(
            cli.execute(
                "items",
                "schedule",
                "--guid",
                "b",
                "--kind",
                "k",
                "--start",
                "now",
                "--max-run-time",
                "10 minutes"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--max-run-time: '10 minutes' is not an ISO-8601 duration");

    assertThat(
            cli.execute(
                "items",
                "schedule",
                "--guid",
                "b",
                "--kind",
                "k",
                "--suspended",
                "--state",
                "{not json"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--state: not valid JSON");

    assertThat(cli.execute("items", "schedule", "--guid", "b", "--kind", "k")).isEqualTo(2);
    assertThat(err.toString()).contains("give exactly one of --start and --suspended");

    assertThat(cli.execute("items", "show", "nobody")).isEqualTo(2);
    assertThat(err.toString()).contains("jimflow: no work item with guid nobody");
  }

  @Test
  void startTimeOfAnUnknownItemOrAnEndedOneIsRefused() {
    cli.execute("items", "schedule", "--guid", "cli-4", "--kind", "k", "--suspended");
    cli.execute("items", "cancel", "cli-4");
    env.getWorkflowClient().newUntypedWorkflowStub("cli-4").getResult(Object.class);
    assertThat(cli.execute("items", "start-time", "cli-4", "now")).isEqualTo(2);
  }

  @Test
  void aWrongOptionIsReportedWithoutConnecting() {
    CommandLine offline =
        JimflowCli.commandLine(
            settings -> {
              throw new AssertionError("must not connect for bad input");
            });
    StringWriter offlineErr = new StringWriter();
    offline.setErr(new PrintWriter(offlineErr, true));

    int code =
        offline.execute(
            "items",
            "schedule",
            "--guid",
            "x",
            "--kind",
            "k",
            "--start",
            "now",
            "--max-restarts",
            "-5");
    assertThat(
            offline.execute(
                "items",
                "schedule",
                "--guid",
                "x",
                "--kind",
                "k",
                "--start",
                "now",
                "--grace",
                "PT0S"))
        .isEqualTo(2);
    assertThat(offlineErr.toString())
        .contains("work item x: gracePeriod: must be a positive duration, was PT0S");

    assertThat(code).isEqualTo(2);
    assertThat(offlineErr.toString()).contains("--max-restarts: must be 0 or more, was -5");

    assertThat(offline.execute("items", "start-time", "x", "soon")).isEqualTo(2);
    assertThat(offlineErr.toString())
        .contains("jimflow: start: 'soon' is neither an ISO instant")
        .doesNotContain("Usage:");
  }
}
