package io.jimflow.cli.shared;

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
public abstract class ClientCommand implements Callable<Integer> {

  @Spec public CommandSpec spec;

  @Mixin public ConnectionOptions connection;

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
  public void checkInput() {}

  public abstract int run(JimflowClient client) throws Exception;

  public PrintWriter out() {
    return spec.commandLine().getOut();
  }

  public PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
