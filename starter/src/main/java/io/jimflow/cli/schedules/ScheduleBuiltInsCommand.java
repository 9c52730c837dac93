package io.jimflow.cli.schedules;

import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import java.util.List;
import picocli.CommandLine.Command;

/**
 * {@code jimflow schedules built-ins}: creates the built-in maintenance schedules where they are
 * missing, leaving existing ones (and a user's re-timing) alone. {@code ./jimflow dev} runs it at
 * start; {@code schedules apply} does it as part of every apply.
 */
@Command(
    name = "built-ins",
    description = {
      "Create the built-in housekeeping and history retention schedules if they are missing.",
      "Existing ones are left as they are (a re-timing or pause is kept)."
    })
public class ScheduleBuiltInsCommand extends ClientCommand {

  @Override
  public int run(JimflowClient client) {
    List<String> created = client.schedules().ensureBuiltIns();
    out()
        .println(
            created.isEmpty()
                ? "Built-in schedules are in place."
                : "Created built-in schedules: " + String.join(", ", created));
    return ExitCodes.OK;
  }
}
