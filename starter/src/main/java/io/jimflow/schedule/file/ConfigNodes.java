package io.jimflow.schedule.file;

import io.jimflow.config.tree.ConfigNode;
import io.jimflow.config.tree.Problems;
import io.jimflow.config.tree.YamlTreeReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The files beside a schedules file, read leniently: their indexes take what they need and leave
 * the files' own validation to the worker.
 */
final class ConfigNodes {

  /** A file beside a schedules file and its YAML tree. */
  record Beside(Path file, ConfigNode root) {}

  /** The file {@code name} in the folder of {@code schedulesFile}; empty when there is none. */
  static Optional<Path> besideFile(Path schedulesFile, String name) {
    Path dir = schedulesFile.toAbsolutePath().getParent();
    Path file = dir == null ? null : dir.resolve(name);
    return file != null && Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
  }

  /**
   * The file {@code name} in the folder of {@code schedulesFile} with its tree; empty when there is
   * none or it is not valid YAML (the worker reports that).
   */
  static Optional<Beside> beside(Path schedulesFile, String name) {
    return besideFile(schedulesFile, name)
        .flatMap(
            file -> {
              Problems problems = new Problems(file.toString());
              return YamlTreeReader.read(file, file.toString(), problems)
                  .filter(root -> problems.isEmpty())
                  .map(root -> new Beside(file, root));
            });
  }

  private ConfigNodes() {}
}
