package io.jimflow.cli;

import io.jimflow.client.JimflowClient;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that talks to Temporal: checks its input first (nothing is sent when that fails), then
 * connects and runs. Failures propagate to {@link FailureReport} and {@link ExitCodes}, which turn
 * them into one line and an exit code.
 */
abstract class ClientCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ConnectionOptions connection;

  private final ClientFactory clients;

  ClientCommand(ClientFactory clients) {
    this.clients = clients;
  }

  @Override
  public final Integer call() throws Exception {
    try {
      checkInput();
      try (JimflowClient client = clients.connect(connection.settings())) {
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
