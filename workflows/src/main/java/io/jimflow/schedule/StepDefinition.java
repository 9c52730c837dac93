package io.jimflow.schedule;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One step of a schedule. Steps with the same {@link #index} form a parallel group; groups run in
 * ascending index order. Exactly one step type ({@link #runProfile}, {@link #executable} or {@link
 * #sqlScript}) is set.
 *
 * @param continueOnFailure true = go on after this step fails, false = stop the execution, null =
 *     follow the schedule's {@code onStepFailure}
 * @param timeout the longest the whole step may take, across all its attempts and the pauses
 *     between them (the activity's schedule-to-close timeout); 1 h if null
 * @param retry how often and how fast a failed attempt is retried; defaults apply if null
 * @param heartbeatTimeout how soon a silent attempt counts as lost (its worker crashed); 30 s if
 *     null
 * @param attemptTimeout the longest one attempt may run (the activity's start-to-close timeout);
 *     {@code timeout} if null. Not written when null, so that definitions without it serialise, and
 *     fingerprint, as before
 */
public record StepDefinition(
    int index,
    String name,
    RunProfileStep runProfile,
    ExecutableStep executable,
    Boolean continueOnFailure,
    Duration timeout,
    RetrySettings retry,
    Duration heartbeatTimeout,
    @JsonInclude(Include.NON_NULL) Duration attemptTimeout,
    @JsonInclude(Include.NON_NULL) SqlScriptStep sqlScript) {

  /** Runs a connected system's run profile (import, synchronisation or export). */
  public record RunProfileStep(String connectedSystem, String runProfile) {}

  /**
   * Runs a program below the executables root, without a shell, if the worker allows it.
   *
   * @param path relative to the executables root
   * @param workingDirectory relative to the executables root; the root itself if null
   * @param env extra environment variables, each name on the worker's allow-list; a value may be a
   *     secret reference {@code ${secret:NAME}}
   * @param limits resource limits of the program and everything it starts; none if null (then not
   *     written at all, so that definitions without limits serialise, and fingerprint, as before)
   */
  public record ExecutableStep(
      String path,
      List<String> args,
      String workingDirectory,
      Map<String, String> env,
      @JsonInclude(JsonInclude.Include.NON_NULL) Limits limits) {
    public ExecutableStep {
      args = args == null ? List.of() : List.copyOf(args);
      env = env == null ? Map.of() : Map.copyOf(env);
    }

    public ExecutableStep(
        String path, List<String> args, String workingDirectory, Map<String, String> env) {
      this(path, args, workingDirectory, env, null);
    }
  }

  /**
   * Operating-system limits of an Executable step's program (null = no limit).
   *
   * @param cpuSeconds CPU time; the program gets SIGXCPU, then SIGKILL
   * @param memoryMegabytes address space
   * @param openFiles open file descriptors
   */
  public record Limits(Long cpuSeconds, Long memoryMegabytes, Integer openFiles) {}

  /**
   * Runs a SQL script file below the worker's scripts root against one of the worker's named JDBC
   * connections, all its statements in one transaction. The definition names the connection only:
   * its URL, user and password stay on the worker.
   *
   * @param connection a connection name of the worker's {@code sql-scripts.yaml}
   * @param path the script, relative to the scripts root
   */
  public record SqlScriptStep(String connection, String path) {}

  /** Retry policy of a step's attempts. Null fields take the defaults (3 attempts, 1 s, 2.0). */
  public record RetrySettings(
      Integer maximumAttempts, Duration initialInterval, Double backoffCoefficient) {}
}
