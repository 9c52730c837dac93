package io.jimflow.schedule.steps;

import io.jimflow.schedule.ExecutablePaths;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepFailures;
import io.jimflow.secrets.activities.Secrets;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Runs an Executable step's program: only one on the worker's {@link ProgramAllowList}, below the
 * executables root, without a shell, with a minimal environment, its output captured, its process
 * tree killed when the step is cancelled or times out.
 *
 * <p>A program takes part in monitoring and recovery through stdout lines: {@code ::progress N/M}
 * reports progress (M may be omitted), {@code ::checkpoint TOKEN} records where a retried attempt
 * resumes; the retried attempt finds TOKEN in {@code JIMFLOW_CHECKPOINT}.
 */
public final class ExecutableRunner {

  /** Environment variables every program gets from the worker's environment, when set there. */
  public static final List<String> BASE_ENVIRONMENT =
      List.of("PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR");

  public static final int DEFAULT_OUTPUT_LIMIT = 8_000;

  /**
   * Often enough that a cancellation reaches the program within about a second of the heartbeat.
   */
  static final Duration HEARTBEAT_EVERY = Duration.ofSeconds(1);

  /** How long a program may take to end after SIGTERM before it and its children are killed. */
  static final Duration TERMINATION_GRACE = Duration.ofSeconds(2);

  private final Path root;
  private final ProgramAllowList programs;
  private final Containment containment;
  private final Set<String> environmentAllowList;
  private final int outputLimit;
  private final Map<String, String> workerEnvironment;
  private final Secrets secrets;

  /**
   * A runner with the worker's environment, the default output limit and no secrets.
   *
   * @param root the executables root ({@code jimflow.steps.executables.root}); every program and
   *     working directory must lie below it, also after resolving symbolic links
   * @param programs the programs (and arguments) this worker runs at all
   * @param environmentAllowList names of variables a step may set in {@code env} and that are
   *     passed through from the worker's environment
   */
  public ExecutableRunner(Path root, ProgramAllowList programs, Set<String> environmentAllowList) {
    this(
        root,
        programs,
        environmentAllowList,
        DEFAULT_OUTPUT_LIMIT,
        System.getenv(),
        Secrets.none(),
        Containment.detect());
  }

  /**
   * @param outputLimit how many characters of output (the tail) the step outcome keeps
   * @param workerEnvironment the worker's environment, from which base and allow-listed variables
   *     are taken
   * @param secrets resolves {@code ${secret:NAME}} values of a step's {@code env}; the values it
   *     knows are masked in the program's output and checkpoints
   * @param containment how programs are kept from outliving their step
   */
  public ExecutableRunner(
      Path root,
      ProgramAllowList programs,
      Set<String> environmentAllowList,
      int outputLimit,
      Map<String, String> workerEnvironment,
      Secrets secrets,
      Containment containment) {
    this.root = root;
    this.programs = programs;
    this.environmentAllowList = Set.copyOf(environmentAllowList);
    this.outputLimit = outputLimit;
    this.workerEnvironment = Map.copyOf(workerEnvironment);
    this.secrets = secrets;
    this.containment = containment;
  }

  /** How a program ended by itself. */
  public record Finished(int exitCode, String output, long processed, long total) {}

  /**
   * Runs the program until it exits, heartbeating through {@code progress} about every second.
   *
   * @param jimflowEnv variables describing the step (JIMFLOW_*), added to the program's environment
   * @param timeout the program is killed once it has run this long
   * @throws ApplicationFailure of type {@link StepFailures#CONFIGURATION_ERROR} when the step
   *     cannot run as defined, {@link StepFailures#EXECUTABLE_TIMED_OUT} when it ran too long
   */
  public Finished run(
      ExecutableStep step,
      Map<String, String> jimflowEnv,
      StepProgress progress,
      Duration timeout) {
    programs
        .refusal(step.path(), step.args())
        .ifPresent(
            refusal -> {
              throw configurationError(refusal);
            });
    Path realRoot = realRoot();
    Path program = below(realRoot, step.path(), "path");
    if (!Files.isRegularFile(program) || !Files.isExecutable(program)) {
      throw configurationError("path '" + step.path() + "' is not an executable file");
    }
    Path workingDirectory =
        step.workingDirectory() == null
            ? realRoot
            : below(realRoot, step.workingDirectory(), "workingDirectory");
    if (!Files.isDirectory(workingDirectory)) {
      throw configurationError(
          "workingDirectory '" + step.workingDirectory() + "' is not a directory");
    }

    List<String> programAndArgs = new ArrayList<>();
    programAndArgs.add(program.toString());
    programAndArgs.addAll(step.args());
    List<String> command;
    try {
      command =
          containment.command(
              programAndArgs, step.limits(), programs.runAs(step.path(), step.args()));
    } catch (IllegalStateException e) {
      throw configurationError(e.getMessage());
    }
    ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile());
    Map<String, String> env = builder.environment();
    env.clear();
    env.putAll(environment(step, jimflowEnv, progress));
    if (containment.contains()) {
      env.put("JIMFLOW_CONTAIN_UNSET", Containment.unsetByHelper(env));
    }

    ProgramOutput output =
        new ProgramOutput(outputLimit, secrets.masker().with(passedThrough(env)));
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw configurationError("path '" + step.path() + "' cannot be started: " + e.getMessage());
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      process.getOutputStream().close();
      Thread out = reader(process.getInputStream(), output, true, step.path());
      Thread err = reader(process.getErrorStream(), output, false, step.path());
      while (!process.waitFor(HEARTBEAT_EVERY.toMillis(), TimeUnit.MILLISECONDS)) {
        if (System.nanoTime() - deadline > 0) {
          killTree(process);
          throw ApplicationFailure.newFailure(
              "'" + step.path() + "' ran longer than " + timeout + " and was killed" + tail(output),
              StepFailures.EXECUTABLE_TIMED_OUT);
        }
        heartbeat(progress, output);
      }
      // Output still buffered in the pipes belongs to the result; a child left behind holding the
      // pipe open must not keep the step waiting.
      out.join(TERMINATION_GRACE.toMillis());
      err.join(TERMINATION_GRACE.toMillis());
      heartbeat(progress, output);
      return new Finished(process.exitValue(), output.text(), output.processed, output.total);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while '" + step.path() + "' ran", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (process.isAlive()) {
        killTree(process);
      }
    }
  }

  /** Stops a process and every process it started: SIGTERM, then SIGKILL after a short grace. */
  static void killTree(Process process) {
    List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
    tree.add(0, process.toHandle());
    tree.forEach(ProcessHandle::destroy);
    try {
      process.waitFor(TERMINATION_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    // Descendants may have started more processes meanwhile.
    tree.addAll(process.descendants().toList());
    tree.forEach(ProcessHandle::destroyForcibly);
  }

  private Map<String, String> environment(
      ExecutableStep step, Map<String, String> jimflowEnv, StepProgress progress) {
    List<String> refused =
        step.env().keySet().stream()
            .filter(n -> !environmentAllowList.contains(n))
            .sorted()
            .toList();
    if (!refused.isEmpty()) {
      throw configurationError(
          "env sets "
              + refused
              + ", not on the worker's allow-list "
              + environmentAllowList.stream().sorted().toList());
    }
    Map<String, String> env = new LinkedHashMap<>();
    for (String name : BASE_ENVIRONMENT) {
      if (workerEnvironment.containsKey(name)) {
        env.put(name, workerEnvironment.get(name));
      }
    }
    for (String name : environmentAllowList) {
      if (workerEnvironment.containsKey(name)) {
        env.put(name, workerEnvironment.get(name));
      }
    }
    env.putAll(resolved(step.env(), jimflowEnv.get("JIMFLOW_STEP_NAME")));
    env.putAll(jimflowEnv);
    progress.lastCheckpoint().ifPresent(c -> env.put("JIMFLOW_CHECKPOINT", c));
    return env;
  }

  private Map<String, String> resolved(Map<String, String> stepEnv, String stepName) {
    try {
      return secrets.resolveAll(stepEnv);
    } catch (ApplicationFailure e) {
      if (Secrets.UNKNOWN_SECRET.equals(e.getType())) {
        throw configurationError("env " + e.getOriginalMessage());
      }
      if (Secrets.SYSTEM_SECRET.equals(e.getType())) {
        throw configurationError(
            (stepName == null ? "" : "step '" + stepName + "': ")
                + "env "
                + e.getOriginalMessage());
      }
      throw e;
    }
  }

  private Path realRoot() {
    try {
      return root.toRealPath();
    } catch (IOException e) {
      throw configurationError("the executables root '" + root + "' does not exist on this worker");
    }
  }

  private static Path below(Path realRoot, String relative, String what) {
    ExecutablePaths.problem(relative)
        .ifPresent(
            problem -> {
              throw configurationError(what + " " + problem);
            });
    Path real;
    try {
      real = realRoot.resolve(relative).toRealPath();
    } catch (IOException e) {
      throw configurationError(
          what + " '" + relative + "' does not exist below the executables root");
    }
    if (!real.startsWith(realRoot)) {
      throw configurationError(what + " '" + relative + "' leads outside the executables root");
    }
    return real;
  }

  /**
   * The values the program gets for names on the allow-list (the worker's own, or the step's):
   * masked like secrets, since a worker passes credentials this way too.
   */
  private List<String> passedThrough(Map<String, String> programEnvironment) {
    return environmentAllowList.stream()
        .map(programEnvironment::get)
        .filter(value -> value != null)
        .toList();
  }

  private static void heartbeat(StepProgress progress, ProgramOutput output) {
    String checkpoint;
    long processed;
    long total;
    synchronized (output) {
      checkpoint = output.checkpoint;
      processed = output.processed;
      total = output.total;
    }
    progress.report(processed, total, checkpoint);
  }

  /**
   * Reads one of the program's streams in chunks: a line longer than the output limit is never held
   * whole (see {@link BoundedLines}).
   */
  private Thread reader(InputStream stream, ProgramOutput output, boolean stdout, String name) {
    Thread thread =
        new Thread(
            () -> {
              try (Reader chars = new InputStreamReader(stream, StandardCharsets.UTF_8)) {
                BoundedLines.read(
                    chars,
                    Math.max(outputLimit, 1),
                    (line, dropped) -> output.line(line, dropped, stdout));
              } catch (IOException closed) {
                // The process was killed or its pipe closed: what was read is kept.
              }
            },
            (stdout ? "stdout of " : "stderr of ") + name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private static String tail(ProgramOutput output) {
    String text = output.text();
    return text.isBlank() ? "" : "; output:\n" + text;
  }

  private static ApplicationFailure configurationError(String message) {
    return ApplicationFailure.newNonRetryableFailure(message, StepFailures.CONFIGURATION_ERROR);
  }
}
