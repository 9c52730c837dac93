package io.jimflow.cli.schedules;

import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import picocli.CommandLine.Parameters;

/** A command acting on one schedule by id. */
abstract class ScheduleIdCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "SCHEDULE-ID", description = "The schedule's id.")
  String scheduleId;

  @Override
  public final int run(JimflowClient client) {
    out().println(act(client));
    return ExitCodes.OK;
  }

  /** Does it and returns the line to print. */
  abstract String act(JimflowClient client);
}
