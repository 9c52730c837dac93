package io.jimflow.cli.schedules;

import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import io.jimflow.schedule.deploy.SchedulePlan;
import picocli.CommandLine.Command;

/** {@code jimflow schedules apply -f FILE}: makes the deployed schedules match the file. */
@Command(
    name = "apply",
    description = {
      "Create, update and delete the file's Temporal Schedules to match it: only those of its",
      "scope (its 'scope:' key, default the file's base name); other files' are never touched.",
      "The whole file is validated first; with any problem nothing is changed (exit 2)."
    })
public class ScheduleApplyCommand extends DefinitionsFileCommand {

  @Override
  public int run(JimflowClient client) {
    SchedulePlan plan = client.schedules().apply(scope, definitions);
    printPlan(plan, "Applied " + file + ":");
    return ExitCodes.OK;
  }
}
