package io.jimflow.schedule;

/** The {@code ApplicationFailure} types of step and execution failures, named in one place. */
public final class StepFailures {

  /** The step cannot run as defined (unknown connected system, path outside the root, ...). */
  public static final String CONFIGURATION_ERROR = "StepConfigurationError";

  /** An attempt failed in a way a retry may cure (an exception of the runner). */
  public static final String STEP_FAILED = "StepFailed";

  /**
   * An attempt was interrupted because its worker was stopped in order (SIGTERM); the details carry
   * its progress ({@link StepHeartbeat}). Never retried as such: the execution resumes the step.
   */
  public static final String WORKER_STOPPED = "StepWorkerStopped";

  /** An Executable step's program exited with a non-zero code. */
  public static final String EXECUTABLE_FAILED = "ExecutableFailed";

  /** An Executable step's program ran past the step timeout and was killed. */
  public static final String EXECUTABLE_TIMED_OUT = "ExecutableTimedOut";

  /**
   * A RunProfile step ran past its attempt's time on this worker (the worker's maximum timeout
   * clamps what the step asks for); its run record ends FailedWithError. Not retried.
   */
  public static final String RUN_PROFILE_TIMED_OUT = "RunProfileTimedOut";

  /**
   * A SqlScript step's statement failed; the transaction was rolled back. Retryable only when the
   * database says a retry may succeed (SQLSTATE class 40, 08: a deadlock, a lost connection).
   */
  public static final String SQL_SCRIPT_FAILED = "SqlScriptFailed";

  /** A SqlScript step's statement ran past the attempt's time; it was cancelled and rolled back. */
  public static final String SQL_SCRIPT_TIMED_OUT = "SqlScriptTimedOut";

  /** The whole execution ended Failed; the failure's details carry the {@link ExecutionResult}. */
  public static final String EXECUTION_FAILED = "ScheduleExecutionFailed";

  /** A schedule execution was started without a definition or without steps. */
  public static final String INVALID_INPUT = "InvalidScheduleExecutionInput";

  private StepFailures() {}
}
