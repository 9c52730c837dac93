package io.jimflow.cli;

import io.jimflow.cli.shared.ClientFactory;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.cli.shared.FailureReport;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;
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
    subcommands = CommandLine.HelpCommand.class)
public class JimflowCli {

  public static final int OK = ExitCodes.OK;
  public static final int ENDED_BADLY = ExitCodes.ENDED_BADLY;
  public static final int BAD_INPUT = ExitCodes.BAD_INPUT;

  public static CommandLine commandLine() {
    return commandLine(io.jimflow.client.JimflowClient::connect);
  }

  /** The command line with commands that obtain their Temporal client from {@code clients}. */
  public static CommandLine commandLine(ClientFactory clients) {
    return commandLine(clients, name -> true);
  }

  /**
   * The command line for one invocation: only the commands that {@code args} name are built in full
   * (see {@link CommandTree}).
   */
  public static CommandLine commandLine(ClientFactory clients, String... args) {
    Set<String> named = new HashSet<>(Arrays.asList(args));
    return commandLine(clients, named::contains);
  }

  private static CommandLine commandLine(ClientFactory clients, Predicate<String> named) {
    CommandLine root = new CommandLine(new JimflowCli(), new CliFactory(clients));
    CommandTree.addCommands(root, named);
    // Set after the tree is built: picocli hands these to the subcommands present at the call.
    TimeValues.register(root);
    return root.setCaseInsensitiveEnumValuesAllowed(true)
        .setExitCodeExceptionMapper(new ExitCodes())
        .setExecutionExceptionHandler(new FailureReport());
  }

  public static void main(String[] args) {
    CommandLine cli = commandLine(io.jimflow.client.JimflowClient::connect, args);
    // Help and version print without setting up logging: nothing else runs for them.
    cli.setExecutionStrategy(
        parsed -> {
          Integer helped = CommandLine.executeHelpRequest(parsed);
          if (helped != null) {
            return helped;
          }
          CliLogging.quiet();
          return new CommandLine.RunLast().execute(parsed);
        });
    System.exit(cli.execute(args));
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = JimflowCli.class.getPackage().getImplementationVersion();
      return new String[] {"jimflow " + (v == null ? "development build" : v)};
    }
  }
}
