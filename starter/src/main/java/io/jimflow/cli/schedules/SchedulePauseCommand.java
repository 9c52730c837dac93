package io.jimflow.cli.schedules;

import io.jimflow.client.JimflowClient;
import picocli.CommandLine.Command;

/** {@code jimflow schedules pause ID}. */
@Command(name = "pause", description = "Pause a schedule: it starts nothing until resumed.")
public class SchedulePauseCommand extends ScheduleIdCommand {

  @Override
  public String act(JimflowClient client) {
    client.schedules().pause(scheduleId);
    return "Paused " + scheduleId + ".";
  }
}
