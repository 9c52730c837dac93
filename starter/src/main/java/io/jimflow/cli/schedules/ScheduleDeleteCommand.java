package io.jimflow.cli.schedules;

import io.jimflow.client.JimflowClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jimflow schedules delete ID}. */
@Command(
    name = "delete",
    description = {
      "Delete a schedule; runs it started go on. The next apply recreates it if the file still has"
          + " it."
    })
public class ScheduleDeleteCommand extends ScheduleIdCommand {

  @Option(names = "--force", description = "Also delete a schedule jimflow did not create.")
  public boolean force;

  @Override
  public String act(JimflowClient client) {
    client.schedules().delete(scheduleId, force);
    return "Deleted " + scheduleId + ".";
  }
}
