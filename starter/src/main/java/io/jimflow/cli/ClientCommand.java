package io.jimflow.cli;

import io.jimflow.client.JimflowClient;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that talks to Temporal: checks its input first (nothing is sent when that fails), then
 * connects and runs. Every such command has the connection options, {@code --help} and {@code
 * --version}. Failures propagate to {@link FailureReport} and {@link ExitCodes}, which turn them
 * into one line and an exit code.
 */
@Command(mixinStandardHelpOptions = true)
abstract class ClientCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ConnectionOptions connection;

  @Override
  public final Integer call() throws Exception {
    try {
      checkInput();
      try (JimflowClient client = connection.connect()) {
        return run(client);
      }
    } finally {
      out().flush();
      err().flush();
    }
  }

  /** Validates input before connecting; throws what is wrong (e.g. IllegalArgumentException). */
  void checkInput() {}

  abstract int run(JimflowClient client) throws Exception;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
