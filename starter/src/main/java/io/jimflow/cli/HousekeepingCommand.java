package io.jimflow.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code jimflow housekeeping …}. */
@Command(
    name = "housekeeping",
    description = "Housekeeping: deletes metaverse objects whose deletion grace period has passed.",
    mixinStandardHelpOptions = true)
public class HousekeepingCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand");
  }
}
