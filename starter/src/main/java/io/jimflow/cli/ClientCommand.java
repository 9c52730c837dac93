package io.jimflow.cli;

import io.jimflow.client.ExecutionAlreadyRunningException;
import io.jimflow.client.JimflowClient;
import io.jimflow.client.JimflowConnectionException;
import io.jimflow.client.NotFoundException;
import io.jimflow.config.tree.ConfigException;
import io.jimflow.schedules.ScheduleConflictException;
import io.temporal.payload.codec.PayloadCodecException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that talks to Temporal: checks its input first (nothing is sent when that fails), then
 * connects, runs, and turns the failures a user can act on into one line and an exit code.
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
      Integer refused = checkInput();
      if (refused != null) {
        return refused;
      }
      try (JimflowClient client = clients.connect(connection.settings())) {
        return run(client);
      }
    } catch (ConfigException e) {
      err().println(e.report());
      return JimflowCli.BAD_INPUT;
    } catch (NotFoundException | ScheduleConflictException | IllegalArgumentException e) {
      err().println("jimflow: " + e.getMessage());
      return JimflowCli.BAD_INPUT;
    } catch (JimflowConnectionException | ExecutionAlreadyRunningException e) {
      err().println("jimflow: " + e.getMessage());
      return JimflowCli.ENDED_BADLY;
    } catch (RuntimeException e) {
      // The SDK wraps a codec's refusal (a missing or wrong payload key) in its own exceptions.
      PayloadCodecException unreadable = codecFailure(e);
      if (unreadable == null) {
        throw e;
      }
      err().println("jimflow: cannot read what Temporal holds: " + unreadable.getMessage());
      return JimflowCli.ENDED_BADLY;
    } finally {
      out().flush();
      err().flush();
    }
  }

  private static PayloadCodecException codecFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof PayloadCodecException codec) {
        return codec;
      }
    }
    return null;
  }

  /** Validates input before connecting; returns an exit code to stop, or null to go on. */
  Integer checkInput() {
    return null;
  }

  abstract int run(JimflowClient client) throws Exception;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
