package io.jimflow.config;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Checks that a program path stays below the executables root: relative, and never climbing out of
 * it with {@code ..}. The worker checks again at run time (after resolving links); this check is
 * there so that such a file is rejected before anything is deployed.
 */
final class ExecutablePaths {

  private ExecutablePaths() {}

  /** Why the program path is not allowed, or null when it is. */
  static String problem(String path) {
    return problem(path, false);
  }

  /** Why the working directory is not allowed, or null when it is (the root itself is fine). */
  static String directoryProblem(String path) {
    return problem(path, true);
  }

  private static String problem(String path, boolean rootAllowed) {
    String unified = path.replace('\\', '/');
    if (unified.startsWith("/") || unified.matches("^[A-Za-z]:.*") || unified.startsWith("~")) {
      return "'"
          + path
          + "' must be relative to the executables root (jimflow.steps.executables.root)";
    }
    Path normalised = Paths.get(unified).normalize();
    if (normalised.startsWith("..")) {
      return "'" + path + "' leaves the executables root (jimflow.steps.executables.root)";
    }
    if (!rootAllowed && normalised.toString().isEmpty()) {
      return "'" + path + "' names the executables root itself, not a program";
    }
    return null;
  }
}
