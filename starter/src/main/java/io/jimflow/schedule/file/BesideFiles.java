package io.jimflow.schedule.file;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The files beside a schedules file, which its indexes read leniently: they take what they need and
 * leave the files' own validation to the worker.
 */
final class BesideFiles {

  /** The file {@code name} in the folder of {@code schedulesFile}; empty when there is none. */
  static Optional<Path> find(Path schedulesFile, String name) {
    Path dir = schedulesFile.toAbsolutePath().getParent();
    Path file = dir == null ? null : dir.resolve(name);
    return file != null && Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
  }

  private BesideFiles() {}
}
