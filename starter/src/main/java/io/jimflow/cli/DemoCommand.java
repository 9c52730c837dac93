package io.jimflow.cli;

import io.jimflow.client.JimflowClient;
import io.jimflow.client.NotFoundException;
import io.jimflow.common.TaskQueues;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedules.SchedulePlan;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jimflow demo}: deploys the example schedules and runs the script-only one to its end,
 * printing each step transition and then the result table. {@code ./jimflow demo} brings up the
 * embedded dev server and a worker for it when none runs.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Apply the example schedules, run the Executable-only example to its end and print its result.",
      "./jimflow demo starts the embedded dev server and a worker for the demo when none runs.",
      "Exit 0 when the run completed (a step allowed to fail may fail), 1 otherwise."
    })
public class DemoCommand extends DefinitionsFileCommand {

  @Option(
      names = "--schedule",
      paramLabel = "ID",
      defaultValue = "script-demo",
      description = "Schedule to run (default ${DEFAULT-VALUE}).")
  String scheduleId;

  @Option(names = "--poll-interval", hidden = true, defaultValue = "PT0.5S")
  Duration pollInterval;

  public DemoCommand(ClientFactory clients) {
    super(clients);
  }

  @Override
  int run(JimflowClient client) throws InterruptedException {
    ScheduleDefinition demo =
        definitions.stream()
            .filter(d -> d.id().equals(scheduleId))
            .findFirst()
            .orElseThrow(() -> new NotFoundException("schedule " + scheduleId + " is not in " + file));
    SchedulePlan plan = client.applySchedules(definitions);
    printPlan(plan, "Applied " + file + ":");
    if (!client.hasWorker(TaskQueues.SCHEDULES)) {
      err()
          .println(
              "jimflow demo: no worker polls "
                  + TaskQueues.SCHEDULES
                  + " on this server; start one with ./jimflow dev and run the demo again");
      return JimflowCli.ENDED_BADLY;
    }
    String workflowId =
        client.startExecution(demo, new Initiator(InitiatorType.User, "demo", "jimflow demo"), false);
    out().println();
    out().println("Running " + demo.name() + " as " + workflowId + " (watch it in the Temporal UI)");
    out().flush();
    ExecutionResult result = RunCommand.follow(client, workflowId, out(), pollInterval);

    out().println();
    Table table = new Table("GROUP", "STEP", "STATUS", "ATTEMPTS", "SECONDS", "MESSAGE");
    for (StepOutcome step : result.steps()) {
      table.row(
          step.index(),
          step.name(),
          step.status(),
          step.attempts(),
          step.startedAt() == null || step.endedAt() == null
              ? null
              : String.format(
                  java.util.Locale.ROOT,
                  "%.1f",
                  Duration.between(step.startedAt(), step.endedAt()).toMillis() / 1000.0),
          lastLine(step.message()));
    }
    table.print(out());
    out().println();
    out().println(demo.name() + " ended " + result.status() + ": " + result.message());
    return result.status() == ExecutionStatus.Complete
            || result.status() == ExecutionStatus.CompleteWithError
        ? JimflowCli.OK
        : JimflowCli.ENDED_BADLY;
  }

  private static String lastLine(String message) {
    if (message == null || message.isBlank()) {
      return null;
    }
    String line = message.strip().lines().reduce((a, b) -> b).orElse("");
    return line.length() > 60 ? line.substring(0, 57) + "..." : line;
  }
}
