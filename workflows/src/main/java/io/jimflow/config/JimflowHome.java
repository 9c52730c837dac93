package io.jimflow.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The jimflow home: the folder whose {@code config/}, {@code data/} and {@code scripts/} a worker
 * and the CLI use, and against which relative paths in their settings are resolved. It is {@code
 * -Djimflow.home} (the {@code ./jimflow} launcher sets it to the checkout), else {@code
 * $JIMFLOW_HOME}, else the working directory.
 */
public final class JimflowHome {

  /** The system property naming the home. */
  public static final String PROPERTY = "jimflow.home";

  /** The environment variable naming the home when the property is not set. */
  public static final String VARIABLE = "JIMFLOW_HOME";

  private JimflowHome() {}

  /** The home named by {@code -Djimflow.home} or {@code $JIMFLOW_HOME}, absolute; empty if none. */
  public static Optional<Path> explicit() {
    String home = System.getProperty(PROPERTY, System.getenv(VARIABLE));
    return home == null || home.isBlank()
        ? Optional.empty()
        : Optional.of(Path.of(home).toAbsolutePath().normalize());
  }

  /** The home: the explicit one, or else the working directory; absolute. */
  public static Path dir() {
    return explicit().orElseGet(() -> Path.of("").toAbsolutePath());
  }

  /** A path as given if absolute, else below the home; absolute and normalized either way. */
  public static Path resolve(Path path) {
    return path.isAbsolute() ? path.normalize() : dir().resolve(path).normalize();
  }
}
