package io.jimflow.cli.schedules;

import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import io.jimflow.schedule.deploy.SchedulePlan;
import picocli.CommandLine.Command;

/** {@code jimflow schedules plan -f FILE}: shows what apply would change, changes nothing. */
@Command(
    name = "plan",
    description = "Show what 'apply' would create, update and delete; change nothing.")
public class SchedulePlanCommand extends DefinitionsFileCommand {

  @Override
  public int run(JimflowClient client) {
    SchedulePlan plan = client.schedules().plan(scope, definitions);
    printPlan(plan, "Plan for " + file + ":");
    return plan.conflicts().isEmpty() ? ExitCodes.OK : ExitCodes.BAD_INPUT;
  }
}
