package io.jimflow.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code jimflow} command line. Exit codes: 0 success, 1 the work ran and ended badly, 2 bad
 * input or usage.
 */
@Command(
    name = "jimflow",
    mixinStandardHelpOptions = true,
    versionProvider = JimflowCli.Version.class,
    description = "Schedules, executions and work items of jimflow, on Temporal.",
    footer = {
      "",
      "Run it locally:",
      "  ./jimflow dev   start the embedded Temporal dev server and a worker;",
      "                  Temporal UI on http://localhost:8233",
      "",
      "Exit codes: 0 success, 1 the work ran and ended badly, 2 bad input or usage.",
      "Server: TEMPORAL_ADDRESS (default 127.0.0.1:7233), TEMPORAL_NAMESPACE."
    },
    subcommands = {
      CommandLine.HelpCommand.class,
      SetupCommand.class,
      SchedulesCommand.class,
      RunCommand.class,
      ExecutionsCommand.class,
      ItemsCommand.class,
      DemoCommand.class,
      SystemsCommand.class,
      HousekeepingCommand.class,
      DataCommand.class,
      RunsCommand.class
    })
public class JimflowCli implements Runnable {

  public static final int OK = 0;
  public static final int ENDED_BADLY = 1;
  public static final int BAD_INPUT = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand");
  }

  public static CommandLine commandLine() {
    return commandLine(io.jimflow.client.JimflowClient::connect);
  }

  /** The command line with commands that obtain their Temporal client from {@code clients}. */
  public static CommandLine commandLine(ClientFactory clients) {
    // picocli's defaults already match: usage errors exit 2, exceptions exit 1.
    return new CommandLine(new JimflowCli(), new CliFactory(clients))
        .setCaseInsensitiveEnumValuesAllowed(true);
  }

  public static void main(String[] args) {
    CliLogging.quiet();
    System.exit(commandLine().execute(args));
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = JimflowCli.class.getPackage().getImplementationVersion();
      return new String[] {"jimflow " + (v == null ? "development build" : v)};
    }
  }
}
