package io.jimflow.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A PostgreSQL data directory's lock file, {@code postmaster.pid}: the server's process id (first
 * line) and port (fourth line). For the embedded PostgreSQL of {@code ./jimflow dev} and of the
 * tests, to tell a running server from one that is gone.
 */
public final class PostmasterPid {

  /** The lock file's name in a data directory. */
  public static final String FILE = "postmaster.pid";

  private PostmasterPid() {}

  /** The process id the data directory's lock file names; empty without a readable one. */
  public static Optional<Long> read(Path dataDirectory) {
    return line(dataDirectory, 0).flatMap(PostmasterPid::number);
  }

  /** The port the data directory's lock file names; empty without a readable one. */
  public static OptionalInt port(Path dataDirectory) {
    return line(dataDirectory, 3)
        .flatMap(PostmasterPid::number)
        .map(port -> OptionalInt.of(port.intValue()))
        .orElse(OptionalInt.empty());
  }

  /**
   * Whether a process is a PostgreSQL server (its program is called {@code postgres}), as opposed
   * to another process that got the id of a server that is gone.
   */
  public static boolean isPostgres(ProcessHandle process) {
    if (!process.isAlive()) {
      return false;
    }
    Optional<String> command = process.info().command();
    if (command.isPresent()) {
      return Path.of(command.get()).getFileName().toString().equals("postgres");
    }
    // The program of another user's process may be hidden; its /proc entry's name is not.
    try {
      return Files.readString(Path.of("/proc", Long.toString(process.pid()), "comm"))
          .strip()
          .equals("postgres");
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The running server the data directory's lock file names, if it still runs. */
  public static Optional<ProcessHandle> runningServer(Path dataDirectory) {
    return read(dataDirectory).flatMap(ProcessHandle::of).filter(PostmasterPid::isPostgres);
  }

  private static Optional<String> line(Path dataDirectory, int index) {
    try {
      List<String> lines = Files.readAllLines(dataDirectory.resolve(FILE));
      return index < lines.size() ? Optional.of(lines.get(index).strip()) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static Optional<Long> number(String text) {
    try {
      return Optional.of(Long.parseLong(text));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
