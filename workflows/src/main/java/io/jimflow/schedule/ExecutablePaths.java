package io.jimflow.schedule;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The static check of an Executable step's path (or working directory): relative, and not leaving
 * the executables root by {@code ..}. Symbolic links are checked again by the worker against real
 * paths.
 */
public final class ExecutablePaths {

  /** What is wrong with {@code path} as a path below the executables root, or empty if nothing. */
  public static Optional<String> problem(String path) {
    if (path == null || path.isBlank()) {
      return Optional.of("is empty");
    }
    Path parsed;
    try {
      parsed = Path.of(path);
    } catch (InvalidPathException e) {
      return Optional.of("is not a valid path: " + e.getReason());
    }
    if (parsed.isAbsolute() || path.startsWith("/") || path.startsWith("\\")) {
      return Optional.of("'" + path + "' must be relative to the executables root");
    }
    Path normalized = parsed.normalize();
    if (normalized.startsWith("..")) {
      return Optional.of("'" + path + "' leaves the executables root");
    }
    return Optional.empty();
  }

  private ExecutablePaths() {}
}
