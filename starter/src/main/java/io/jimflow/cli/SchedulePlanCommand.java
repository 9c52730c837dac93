package io.jimflow.cli;

import io.jimflow.client.JimflowClient;
import io.jimflow.schedule.deploy.SchedulePlan;
import picocli.CommandLine.Command;

/** {@code jimflow schedules plan -f FILE}: shows what apply would change, changes nothing. */
@Command(
    name = "plan",
    description = "Show what 'apply' would create, update and delete; change nothing.")
public class SchedulePlanCommand extends DefinitionsFileCommand {

  @Override
  int run(JimflowClient client) {
    SchedulePlan plan = client.schedules().plan(scope, definitions);
    printPlan(plan, "Plan for " + file + ":");
    return plan.conflicts().isEmpty() ? JimflowCli.OK : JimflowCli.BAD_INPUT;
  }
}
