package io.jimflow.cli;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Turns an exception no command handled itself into one line on stderr (what failed, why, what to
 * do) and an exit code: 2 when the request named something that is not there or that Temporal finds
 * invalid, 1 otherwise. {@code --verbose} adds the stack trace.
 */
final class FailureReport implements CommandLine.IExecutionExceptionHandler {

  @Override
  public int handleExecutionException(
      Exception e, CommandLine commandLine, CommandLine.ParseResult parsed) {
    PrintWriter err = commandLine.getErr();
    err.println(line(commandLine.getCommandSpec().qualifiedName(), e));
    if (verbose(parsed)) {
      e.printStackTrace(err);
    }
    err.flush();
    return exitCode(e);
  }

  static String line(String command, Throwable e) {
    StatusRuntimeException status = statusOf(e);
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

  static int exitCode(Throwable e) {
    StatusRuntimeException status = statusOf(e);
    if (status == null) {
      return JimflowCli.ENDED_BADLY;
    }
    return switch (status.getStatus().getCode()) {
      case NOT_FOUND, INVALID_ARGUMENT, ALREADY_EXISTS -> JimflowCli.BAD_INPUT;
      default -> JimflowCli.ENDED_BADLY;
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

  private static StatusRuntimeException statusOf(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StatusRuntimeException status) {
        return status;
      }
    }
    return null;
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
