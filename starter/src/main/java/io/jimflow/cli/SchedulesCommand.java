package io.jimflow.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code jimflow schedules …}: the Temporal Schedules made from the schedules file. */
@Command(
    name = "schedules",
    description = "Deploy and manage the Temporal Schedules made from config/schedules.yaml.",
    mixinStandardHelpOptions = true)
public class SchedulesCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand");
  }
}
