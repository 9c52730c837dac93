package io.jimflow.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code jimflow data …}: example identity data. */
@Command(
    name = "data",
    description = "Example identity data for the connected systems.",
    mixinStandardHelpOptions = true)
public class DataCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand");
  }
}
