package io.jimflow.cli.shared;

import io.grpc.StatusRuntimeException;
import io.jimflow.client.ExecutionAlreadyRunningException;
import io.jimflow.client.ExecutionEndedException;
import io.jimflow.client.JimflowConnectionException;
import io.jimflow.client.MaintenanceClient.MaintenanceFailedException;
import io.jimflow.client.NotFoundException;
import io.jimflow.client.WorkItemRefusedException;
import io.jimflow.config.tree.ConfigException;
import io.jimflow.schedule.deploy.ScheduleConflictException;
import io.temporal.payload.codec.PayloadCodecException;
import java.util.List;
import picocli.CommandLine;

/**
 * The exit code of every failure: {@value ExitCodes#BAD_INPUT} for bad input or usage (the request
 * named something that is not there, or that Temporal finds invalid), {@value
 * ExitCodes#ENDED_BADLY} for everything else.
 */
public final class ExitCodes implements CommandLine.IExitCodeExceptionMapper {

  /** The command did what it was asked. */
  public static final int OK = 0;

  /** The work ran and ended badly. */
  public static final int ENDED_BADLY = 1;

  /** Bad input or usage: the request named something that is not there, or is invalid. */
  public static final int BAD_INPUT = 2;

  /** Failures caused by what the user asked for; their message says what was wrong. */
  private static final List<Class<? extends Throwable>> BAD_INPUT_FAILURES =
      List.of(
          CommandLine.ParameterException.class,
          ConfigException.class,
          NotFoundException.class,
          ExecutionEndedException.class,
          ScheduleConflictException.class,
          WorkItemRefusedException.class,
          IllegalArgumentException.class);

  /** Failures of the work or its surroundings whose message tells the whole story. */
  private static final List<Class<? extends Throwable>> ENDED_BADLY_FAILURES =
      List.of(
          JimflowConnectionException.class,
          ExecutionAlreadyRunningException.class,
          MaintenanceFailedException.class);

  @Override
  public int getExitCode(Throwable e) {
    if (isAny(e, BAD_INPUT_FAILURES)) {
      return ExitCodes.BAD_INPUT;
    }
    if (isAny(e, ENDED_BADLY_FAILURES) || codecFailure(e) != null) {
      return ExitCodes.ENDED_BADLY;
    }
    StatusRuntimeException status = cause(e, StatusRuntimeException.class);
    if (status == null) {
      return ExitCodes.ENDED_BADLY;
    }
    return switch (status.getStatus().getCode()) {
      case NOT_FOUND, INVALID_ARGUMENT, ALREADY_EXISTS -> ExitCodes.BAD_INPUT;
      default -> ExitCodes.ENDED_BADLY;
    };
  }

  /** Whether the exception's own message is all a user needs (no "failed:" wording, no hint). */
  public static boolean explainsItself(Throwable e) {
    return isAny(e, BAD_INPUT_FAILURES) || isAny(e, ENDED_BADLY_FAILURES);
  }

  /**
   * A payload codec's refusal (a missing or wrong payload key), which the SDK wraps in its own
   * exceptions; null when {@code e} is none.
   */
  public static PayloadCodecException codecFailure(Throwable e) {
    return cause(e, PayloadCodecException.class);
  }

  /** The first exception of {@code type} in {@code e}'s chain of causes, or null. */
  public static <T extends Throwable> T cause(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static boolean isAny(Throwable e, List<Class<? extends Throwable>> types) {
    return types.stream().anyMatch(type -> type.isInstance(e));
  }
}
