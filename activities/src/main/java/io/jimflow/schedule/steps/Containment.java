package io.jimflow.schedule.steps;

import io.jimflow.schedule.StepDefinition.Limits;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a step's program is kept from outliving its step: through a small python3 helper that becomes
 * a child subreaper, starts the program in a session of its own with the step's resource limits and
 * the allow-list's user, and kills everything left below it when the program ends, is cancelled or
 * times out — also processes that daemonised with a double fork or {@code setsid}, which the worker
 * could not see otherwise. Without python3 ({@link #none()}) the worker kills only the descendants
 * it can see.
 */
public final class Containment {

  private static final String HELPER = "contain.py";
  private static final long MEGABYTE = 1024L * 1024L;

  private final Optional<List<String>> launcher;

  private Containment(Optional<List<String>> launcher) {
    this.launcher = launcher;
  }

  /** No helper: the program runs directly; limits and run-as users are refused. */
  public static Containment none() {
    return new Containment(Optional.empty());
  }

  /**
   * The helper run by this python3 interpreter, in isolated mode ({@code -I}: no {@code PYTHON*}
   * variable of a step's environment reaches the helper); the helper is written to a temporary
   * file.
   */
  public static Containment withPython(Path python3) {
    return new Containment(
        Optional.of(List.of(python3.toString(), "-I", extractHelper().toString())));
  }

  /**
   * The helper when python3 is on the PATH, otherwise {@link #none()}. A launcher script (such as a
   * pyenv shim) is looked through to the interpreter, so that it adds nothing to a program's
   * environment.
   */
  public static Containment detect() {
    return findOnPath("python3")
        .flatMap(Containment::interpreter)
        .map(Containment::withPython)
        .orElseGet(Containment::none);
  }

  /**
   * The variables that the helper must remove from {@code environment} before it starts the
   * program, because Python may add them itself.
   */
  static String unsetByHelper(java.util.Map<String, String> environment) {
    return environment.containsKey("LC_CTYPE") ? "" : "LC_CTYPE";
  }

  /** Whether programs run under the helper. */
  public boolean contains() {
    return launcher.isPresent();
  }

  /**
   * The command that runs {@code programAndArgs} contained.
   *
   * @throws IllegalStateException when limits or a user are asked for without the helper
   */
  List<String> command(List<String> programAndArgs, Limits limits, Optional<String> runAs) {
    boolean limited =
        limits != null
            && (limits.cpuSeconds() != null
                || limits.memoryMegabytes() != null
                || limits.openFiles() != null);
    if (launcher.isEmpty()) {
      if (limited || runAs.isPresent()) {
        throw new IllegalStateException(
            "resource limits and run-as users need python3 on the worker"
                + " (jimflow.steps.executables.containment)");
      }
      return programAndArgs;
    }
    List<String> command = new ArrayList<>(launcher.get());
    if (limits != null) {
      add(command, "--cpu-seconds", limits.cpuSeconds());
      add(
          command,
          "--memory-bytes",
          limits.memoryMegabytes() == null ? null : limits.memoryMegabytes() * MEGABYTE);
      add(command, "--open-files", limits.openFiles());
    }
    runAs.ifPresent(user -> add(command, "--user", user));
    command.add("--");
    command.addAll(programAndArgs);
    return command;
  }

  private static void add(List<String> command, String option, Object value) {
    if (value != null) {
      command.add(option);
      command.add(value.toString());
    }
  }

  private static Path extractHelper() {
    try (InputStream in = Containment.class.getResourceAsStream(HELPER)) {
      if (in == null) {
        throw new IllegalStateException("the containment helper " + HELPER + " is missing");
      }
      Path file = Files.createTempFile("jimflow-contain-", ".py");
      file.toFile().deleteOnExit();
      Files.write(file, in.readAllBytes());
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the containment helper", e);
    }
  }

  private static Optional<Path> interpreter(Path python3) {
    try {
      Process process =
          new ProcessBuilder(python3.toString(), "-I", "-c", "import sys; print(sys.executable)")
              .redirectErrorStream(true)
              .start();
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes()).trim();
      if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)
          || process.exitValue() != 0
          || output.isEmpty()) {
        process.destroyForcibly();
        return Optional.empty();
      }
      Path real = Path.of(output);
      return Files.isExecutable(real) ? Optional.of(real) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static Optional<Path> findOnPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
