package io.jimflow.cli;

import io.jimflow.client.JimflowClient;
import picocli.CommandLine.Command;

/** {@code jimflow schedules resume ID}. */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    description = "Resume a paused schedule.")
public class ScheduleResumeCommand extends ScheduleIdCommand {

  public ScheduleResumeCommand(ClientFactory clients) {
    super(clients);
  }

  @Override
  String act(JimflowClient client) {
    client.schedules().resume(scheduleId);
    return "Resumed " + scheduleId + ".";
  }
}
