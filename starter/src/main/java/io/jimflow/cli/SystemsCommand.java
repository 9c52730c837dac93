package io.jimflow.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code jimflow systems …}: maintenance of connected systems. */
@Command(
    name = "systems",
    description =
        "Clear or delete a connected system (runs as a workflow on the maintenance queue).",
    mixinStandardHelpOptions = true)
public class SystemsCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand");
  }
}
