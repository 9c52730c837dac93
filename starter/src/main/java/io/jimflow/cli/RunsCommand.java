package io.jimflow.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code jimflow runs ...}: the run records (JIM's audit "activities") of run profile steps. */
@Command(
    name = "runs",
    mixinStandardHelpOptions = true,
    description = "Run records of run profile steps, read from the store by a worker.")
public class RunsCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand");
  }
}
