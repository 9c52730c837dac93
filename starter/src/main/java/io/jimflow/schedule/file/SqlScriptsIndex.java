package io.jimflow.schedule.file;

import io.jimflow.config.tree.Problems;
import io.jimflow.config.tree.SqlScriptsFile;
import io.jimflow.schedule.ExecutablePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * The scripts root and connection names of the {@code sql-scripts.yaml} beside a schedules file, so
 * that SqlScript steps are checked (known connection, script present below the root) before
 * anything is deployed. The worker reads the same file, through the same {@link SqlScriptsFile},
 * and checks again when a step runs.
 */
public final class SqlScriptsIndex {

  private final Path file;
  private final Optional<Path> root;
  private final Set<String> connections;

  private SqlScriptsIndex(Path file, Optional<Path> root, Set<String> connections) {
    this.file = file;
    this.root = root;
    this.connections = connections;
  }

  /**
   * The index of the {@code sql-scripts.yaml} beside a schedules file; empty when there is none (or
   * it cannot be read as YAML), in which case only the form of SqlScript steps is checked. The
   * file's own problems are left to the worker: the index takes what it can.
   */
  public static Optional<SqlScriptsIndex> besides(Path schedulesFile) {
    return BesideFiles.find(schedulesFile, SqlScriptsFile.FILE_NAME)
        .flatMap(file -> SqlScriptsFile.read(file, new Problems(file.toString())))
        .map(scripts -> new SqlScriptsIndex(scripts.file(), scripts.root(), scripts.connections()));
  }

  /** What is wrong with a SqlScript step's connection name, if anything. */
  public Optional<String> connectionProblem(String connection) {
    if (connections.contains(connection)) {
      return Optional.empty();
    }
    return Optional.of(
        "connection '"
            + connection
            + "' is not in "
            + file.getFileName()
            + " (known: "
            + (connections.isEmpty() ? "none" : String.join(", ", connections))
            + ")");
  }

  /**
   * What is wrong with a SqlScript step's script, if anything: missing, or outside the root once
   * symbolic links are resolved. Assumes {@link ExecutablePaths#scriptProblem} found nothing.
   */
  public Optional<String> scriptProblem(String path) {
    if (root.isEmpty()) {
      return Optional.of(file + " names no scripts root ('root')");
    }
    Path realRoot;
    try {
      realRoot = root.get().toRealPath();
    } catch (IOException e) {
      return Optional.of("the scripts root " + root.get() + " (" + file + ") does not exist");
    }
    Path script;
    try {
      script = realRoot.resolve(path).toRealPath();
    } catch (IOException e) {
      return Optional.of("script '" + path + "' does not exist below the scripts root " + realRoot);
    }
    if (!script.startsWith(realRoot)) {
      return Optional.of("script '" + path + "' leads outside the scripts root " + realRoot);
    }
    if (!Files.isRegularFile(script)) {
      return Optional.of("script '" + path + "' is not a file");
    }
    return Optional.empty();
  }
}
