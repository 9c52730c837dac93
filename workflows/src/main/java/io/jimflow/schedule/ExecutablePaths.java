package io.jimflow.schedule;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The one static check of an Executable step's path and working directory, and of a SqlScript
 * step's script: relative to its root and never climbing out of it with {@code ..}. Validation runs
 * it so that a bad file is refused before anything is deployed; the worker runs it again on
 * whatever definition it is given, and then checks real paths (symbolic links) against the root.
 */
public final class ExecutablePaths {

  private static final String ROOT = "executables root";
  private static final String SETTING = " (jimflow.steps.executables.root)";
  private static final String SCRIPTS_ROOT = "scripts root";
  private static final String SCRIPTS_SETTING = " (root in sql-scripts.yaml)";

  /** What is wrong with {@code path} as a program below the executables root, or empty. */
  public static Optional<String> problem(String path) {
    return problem(path, false, ROOT, SETTING, "a program");
  }

  /** What is wrong with {@code path} as a working directory (the root itself is fine), or empty. */
  public static Optional<String> directoryProblem(String path) {
    return problem(path, true, ROOT, SETTING, "");
  }

  /**
   * What is wrong with {@code path} as a SqlScript step's script below the scripts root, or empty.
   */
  public static Optional<String> scriptProblem(String path) {
    return problem(path, false, SCRIPTS_ROOT, SCRIPTS_SETTING, "a script");
  }

  /**
   * {@code path} written the one way the worker's allow-list compares it: {@code /} separators,
   * {@code .} and {@code ..} resolved ({@code tools/../count.sh} is {@code count.sh}). Only for
   * paths without a {@link #problem}.
   */
  public static String normalized(String path) {
    return Path.of(path.replace('\\', '/')).normalize().toString().replace('\\', '/');
  }

  private static Optional<String> problem(
      String path, boolean rootAllowed, String root, String setting, String what) {
    if (path == null || path.isBlank()) {
      return Optional.of("is empty");
    }
    String unified = path.replace('\\', '/');
    if (unified.startsWith("/") || unified.matches("^[A-Za-z]:.*") || unified.startsWith("~")) {
      return Optional.of("'" + path + "' must be relative to the " + root + setting);
    }
    Path normalised;
    try {
      normalised = Path.of(unified).normalize();
    } catch (InvalidPathException e) {
      return Optional.of("'" + path + "' is not a valid path: " + e.getReason());
    }
    if (normalised.startsWith("..")) {
      return Optional.of("'" + path + "' leaves the " + root + setting);
    }
    if (!rootAllowed && normalised.toString().isEmpty()) {
      return Optional.of("'" + path + "' names the " + root + " itself, not " + what);
    }
    return Optional.empty();
  }

  private ExecutablePaths() {}
}
