package io.jimflow.cli.schedules;

import io.jimflow.client.JimflowClient;
import picocli.CommandLine.Command;

/** {@code jimflow schedules trigger ID}. */
@Command(
    name = "trigger",
    description = {
      "Start a scheduled run now, as if its time had come.",
      "The schedule's overlap policy applies: with skip, nothing starts while a run is open."
    })
public class ScheduleTriggerCommand extends ScheduleIdCommand {

  @Override
  public String act(JimflowClient client) {
    client.schedules().trigger(scheduleId);
    return "Triggered " + scheduleId + " (subject to its overlap policy).";
  }
}
