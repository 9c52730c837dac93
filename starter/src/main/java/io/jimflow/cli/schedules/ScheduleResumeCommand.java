package io.jimflow.cli.schedules;

import io.jimflow.client.JimflowClient;
import picocli.CommandLine.Command;

/** {@code jimflow schedules resume ID}. */
@Command(name = "resume", description = "Resume a paused schedule.")
public class ScheduleResumeCommand extends ScheduleIdCommand {

  @Override
  public String act(JimflowClient client) {
    client.schedules().resume(scheduleId);
    return "Resumed " + scheduleId + ".";
  }
}
