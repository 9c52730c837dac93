package io.jimflow.schedule.steps;

import io.jimflow.schedule.Bounded;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepDefinition.Limits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The most a step may ask of this worker, whatever its definition (a schedule, {@code jimflow
 * start}, or a forged workflow input) says: how long one attempt of any step runs (a RunProfile
 * step's connectors check it between pages, see {@link DeadlineStepProgress}), how many attempts
 * any step gets, and the operating-system limits of a program. A step asking for more is clamped to
 * these, and the step's message says so.
 *
 * @param timeout the longest one attempt of any step runs (24 h by default)
 * @param attempts how many attempts any step gets at most (10 by default)
 * @param cpuSeconds the most CPU time a program may be given; null for no maximum
 * @param memoryMegabytes the most address space a program may be given; null for no maximum
 * @param openFiles the most open files a program may be given; null for no maximum
 */
public record StepMaxima(
    Duration timeout, int attempts, Long cpuSeconds, Long memoryMegabytes, Integer openFiles) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofHours(24);
  public static final int DEFAULT_ATTEMPTS = 10;

  /** The worker's maxima when none are configured. */
  public static final StepMaxima DEFAULT =
      new StepMaxima(DEFAULT_TIMEOUT, DEFAULT_ATTEMPTS, null, null, null);

  public StepMaxima {
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(
          "the maximum step timeout must be positive, not " + timeout);
    }
    if (attempts < 1) {
      throw new IllegalArgumentException("the maximum attempts must be 1 or more, not " + attempts);
    }
    positive("cpu-seconds", cpuSeconds);
    positive("memory-megabytes", memoryMegabytes);
    positive("open-files", openFiles == null ? null : openFiles.longValue());
  }

  /**
   * What one attempt of {@code step} may do on this worker.
   *
   * @param step the step as its definition came
   * @param attemptTimeout how long the attempt was given (its start-to-close timeout)
   * @param attempt which attempt this is (from 1)
   */
  public Bounds bound(StepDefinition step, Duration attemptTimeout, int attempt) {
    List<String> notes = new ArrayList<>();
    String refusal = null;
    if (attempt > attempts) {
      refusal =
          "Step '"
              + step.name()
              + "' refused attempt "
              + attempt
              + ": this worker runs a step at most "
              + attempts
              + " times";
    }
    Bounded<Duration> time = Bounded.atMost("timeout", attemptTimeout, timeout);
    note(notes, time);
    ExecutableStep executable = step.executable();
    if (executable != null) {
      Limits asked = executable.limits();
      Bounded<Long> cpu =
          Bounded.atMost("cpuSeconds", asked == null ? null : asked.cpuSeconds(), cpuSeconds);
      Bounded<Long> memory =
          Bounded.atMost(
              "memoryMegabytes", asked == null ? null : asked.memoryMegabytes(), memoryMegabytes);
      Bounded<Long> files =
          Bounded.atMost(
              "openFiles",
              asked == null || asked.openFiles() == null ? null : asked.openFiles().longValue(),
              openFiles == null ? null : openFiles.longValue());
      note(notes, cpu);
      note(notes, memory);
      note(notes, files);
      Limits limits =
          new Limits(
              cpu.value(), memory.value(), files.value() == null ? null : files.value().intValue());
      if (!limits.equals(asked == null ? new Limits(null, null, null) : asked)) {
        executable =
            new ExecutableStep(
                executable.path(),
                executable.args(),
                executable.workingDirectory(),
                executable.env(),
                limits);
      }
    }
    return new Bounds(time.value(), executable, List.copyOf(notes), refusal);
  }

  /**
   * What an attempt runs with.
   *
   * @param timeout the attempt's time on this worker
   * @param executable the Executable step with its limits held to the maxima; null for other steps
   * @param notes what the worker changed, for the step's message; empty when nothing
   * @param refusal why the attempt does not run at all; null when it runs
   */
  public record Bounds(
      Duration timeout, ExecutableStep executable, List<String> notes, String refusal) {

    /** {@code message} with the notes appended, one line: what the user reads as the message. */
    public String annotate(String message) {
      if (notes.isEmpty()) {
        return message;
      }
      String said = "(" + String.join("; ", notes) + ")";
      return message == null || message.isEmpty() ? said : message + "\n" + said;
    }
  }

  private static void note(List<String> notes, Bounded<?> bounded) {
    if (bounded.clamped()) {
      notes.add(bounded.note());
    }
  }

  private static void positive(String name, Long value) {
    if (value != null && value < 1) {
      throw new IllegalArgumentException(
          "the maximum " + name + " must be 1 or more, not " + value);
    }
  }
}
