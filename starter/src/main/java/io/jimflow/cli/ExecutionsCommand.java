package io.jimflow.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code jimflow executions …}: list, show and cancel schedule executions. */
@Command(
    name = "executions",
    mixinStandardHelpOptions = true,
    description = "List, show and cancel schedule executions.")
public class ExecutionsCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand");
  }
}
