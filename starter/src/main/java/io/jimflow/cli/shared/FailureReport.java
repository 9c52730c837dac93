package io.jimflow.cli.shared;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jimflow.client.MaintenanceClient.MaintenanceFailedException;
import io.jimflow.config.tree.ConfigException;
import io.temporal.payload.codec.PayloadCodecException;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Reports a failed command: one line on stderr (what failed, why, what to do; a schedules file's
 * problems one a line), and the exit code of {@link ExitCodes}. {@code --verbose} adds the stack
 * trace of a failure that does not explain itself.
 */
public final class FailureReport implements CommandLine.IExecutionExceptionHandler {

  @Override
  public int handleExecutionException(
      Exception e, CommandLine commandLine, CommandLine.ParseResult parsed) {
    PrintWriter err = commandLine.getErr();
    err.println(line(commandLine.getCommandSpec().qualifiedName(), e));
    if (verbose(parsed) && !ExitCodes.explainsItself(e)) {
      e.printStackTrace(err);
    }
    err.flush();
    CommandLine.IExitCodeExceptionMapper exitCodes = commandLine.getExitCodeExceptionMapper();
    return (exitCodes == null ? new ExitCodes() : exitCodes).getExitCode(e);
  }

  public static String line(String command, Throwable e) {
    if (e instanceof ConfigException config) {
      return config.report();
    }
    if (e instanceof MaintenanceFailedException failed) {
      return "jimflow: " + failed.getMessage() + " (" + failed.workflowId() + ")";
    }
    if (ExitCodes.explainsItself(e)) {
      return "jimflow: " + e.getMessage();
    }
    PayloadCodecException unreadable = ExitCodes.codecFailure(e);
    if (unreadable != null) {
      return "jimflow: cannot read what Temporal holds: " + unreadable.getMessage();
    }
    StatusRuntimeException status = ExitCodes.cause(e, StatusRuntimeException.class);
    if (status == null) {
      return command
          + " failed: "
          + describe(e)
          + ". Run it again with --verbose for the details (or report them).";
    }
    String why = describe(status.getStatus());
    return command
        + " failed: "
        + switch (status.getStatus().getCode()) {
          case UNAVAILABLE ->
              "Temporal cannot be reached ("
                  + why
                  + "). Check that the server runs"
                  + " and that --address / TEMPORAL_ADDRESS points at it.";
          case NOT_FOUND ->
              "Temporal has no such thing ("
                  + why
                  + "). Check the name or id and"
                  + " the namespace (--namespace / TEMPORAL_NAMESPACE).";
          case PERMISSION_DENIED, UNAUTHENTICATED ->
              "Temporal refused the request ("
                  + why
                  + "). Check --api-key / --tls-cert / --tls-key and what that identity may do in"
                  + " the namespace.";
          case DEADLINE_EXCEEDED ->
              "Temporal did not answer in time ("
                  + why
                  + "). Try again;"
                  + " if it persists, check the server's health.";
          case RESOURCE_EXHAUSTED ->
              "Temporal is limiting requests (" + why + "). Try again" + " in a moment.";
          case INVALID_ARGUMENT, FAILED_PRECONDITION, ALREADY_EXISTS ->
              "Temporal rejected the" + " request (" + why + ").";
          default -> "Temporal answered " + why + ".";
        };
  }

  private static boolean verbose(CommandLine.ParseResult parsed) {
    for (CommandLine matched : parsed.asCommandLineList()) {
      if (matched.getParseResult() != null
          && matched.getParseResult().hasMatchedOption("--verbose")) {
        return true;
      }
    }
    return false;
  }

  private static String describe(Status status) {
    String description = status.getDescription();
    return description == null || description.isBlank()
        ? status.getCode().name()
        : status.getCode() + ": " + description;
  }

  private static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage();
    return message == null || message.isBlank()
        ? root.getClass().getSimpleName()
        : root.getClass().getSimpleName() + ": " + message.lines().findFirst().orElse("");
  }
}
