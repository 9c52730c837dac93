package io.jimflow.cli.shared;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jimflow.cli.JimflowCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Failures from the server reach the user as one line and an exit code, never a stack trace. */
class FailureReportTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(ClientFactory clients, String... args) {
    CommandLine cli = JimflowCli.commandLine(clients, args);
    cli.setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  private static ClientFactory failingWith(Status status) {
    return settings -> {
      throw new StatusRuntimeException(status);
    };
  }

  @Test
  void permissionDeniedIsOneLineNamingTheCommandTheCauseAndTheFix() {
    int exit =
        run(
            failingWith(Status.PERMISSION_DENIED.withDescription("Request unauthorized.")),
            "schedules",
            "list");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString().lines())
        .singleElement()
        .asString()
        .startsWith("jimflow schedules list failed: Temporal refused the request")
        .contains("PERMISSION_DENIED: Request unauthorized.", "--api-key");
  }

  @Test
  void somethingMissingOnTheServerExitsTwo() {
    int exit =
        run(
            failingWith(Status.NOT_FOUND.withDescription("workflow not found for ID: x")),
            "executions",
            "show",
            "x");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString().lines())
        .singleElement()
        .asString()
        .contains("NOT_FOUND: workflow not found for ID: x", "--namespace");
  }

  @Test
  void verboseAddsTheStackTrace() {
    int exit =
        run(
            failingWith(Status.UNAVAILABLE.withDescription("io exception")),
            "schedules",
            "list",
            "--verbose");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString())
        .startsWith("jimflow schedules list failed: Temporal cannot be reached")
        .contains("\tat ");
  }

  @Test
  void anUnreachableServerIsOneLineWithExitOne() {
    int exit =
        run(
            io.jimflow.client.JimflowClient::connect,
            "schedules",
            "list",
            "--address",
            "127.0.0.1:1");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString().lines())
        .singleElement()
        .asString()
        .contains("Cannot reach Temporal at 127.0.0.1:1");
  }
}
