package io.jimflow.cli.start;

import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.ExecutionClient;
import io.jimflow.client.JimflowClient;
import io.jimflow.client.NotFoundException;
import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.file.ScheduleDefinitions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jimflow start ID [-f FILE] [--wait] [--exclusive]}: a manual run of a schedule. {@code
 * jimflow run}, its name before, still works (hidden from the usage).
 */
@Command(
    name = "start",
    description = {
      "Start an execution of a schedule now and print its workflow id.",
      "The definition comes from -f FILE, or else from the deployed schedule.",
      "With --wait: print each step transition, exit 0 on Complete, 1 on any other end."
    })
public class StartCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "SCHEDULE-ID")
  public String scheduleId;

  @Option(
      names = {"-f", "--file"},
      paramLabel = "FILE",
      description = "Take the definition from this schedules file.")
  public Path file;

  @Option(names = "--wait", description = "Follow the execution to its end.")
  public boolean waitForEnd;

  @Option(
      names = "--exclusive",
      description = "Refuse to start while an execution of this schedule is open (exit 1).")
  public boolean exclusive;

  @Option(names = "--poll-interval", hidden = true, defaultValue = "PT0.5S")
  public Duration pollInterval;

  private ScheduleDefinition fromFile;

  @Override
  public void checkInput() {
    if (io.jimflow.schedule.deploy.BuiltInSchedules.isBuiltIn(scheduleId)) {
      throw new IllegalArgumentException(
          "schedule "
              + scheduleId
              + " is built in and has no steps to run; start it with"
              + " 'jimflow schedules trigger "
              + scheduleId
              + "'");
    }
    if (file != null) {
      fromFile =
          ScheduleDefinitions.load(file).stream()
              .filter(d -> d.id().equals(scheduleId))
              .findFirst()
              .orElseThrow(
                  () -> new NotFoundException("schedule " + scheduleId + " is not in " + file));
    }
  }

  @Override
  public int run(JimflowClient client) throws InterruptedException {
    ScheduleDefinition definition = fromFile;
    if (definition == null) {
      try {
        definition = client.schedules().deployedDefinition(scheduleId);
      } catch (NotFoundException e) {
        throw new NotFoundException(
            e.getMessage() + "; deploy it with 'jimflow schedules apply' or pass -f FILE");
      }
    }
    String user = System.getProperty("user.name", "unknown");
    String workflowId =
        client
            .executions()
            .start(definition, new Initiator(InitiatorType.User, user, user), exclusive);
    out().println(workflowId);
    out().flush();
    if (!waitForEnd) {
      return ExitCodes.OK;
    }
    ExecutionResult result = follow(client.executions(), workflowId, out(), pollInterval);
    out()
        .println(
            "Execution "
                + workflowId
                + " ended "
                + result.status()
                + (result.message() == null || result.message().isBlank()
                    ? "."
                    : ": " + result.message()));
    return result.status() == ExecutionStatus.Complete ? ExitCodes.OK : ExitCodes.ENDED_BADLY;
  }

  /**
   * Prints each step transition of an execution as it happens, until it ends; returns its result.
   */
  public static ExecutionResult follow(
      ExecutionClient executions, String workflowId, PrintWriter out, Duration pollInterval)
      throws InterruptedException {
    StepTransitions transitions = new StepTransitions();
    while (executions.isOpen(workflowId)) {
      try {
        ExecutionProgress progress = executions.progress(workflowId);
        transitions.next(progress.steps()).forEach(out::println);
        out.flush();
      } catch (NotFoundException e) {
        throw e;
      } catch (RuntimeException notYetAnswered) {
        // Until a worker picks the run up, the query has nobody to answer it; keep polling.
      }
      Thread.sleep(pollInterval.toMillis());
    }
    ExecutionResult result = executions.awaitResult(workflowId);
    transitions.next(result.steps()).forEach(out::println);
    return result;
  }
}
