package io.jimflow.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/** Waits on a worker's heartbeat file the way a container HEALTHCHECK watches it. */
final class HeartbeatFiles {

  private HeartbeatFiles() {}

  /**
   * Waits until the worker rewrites {@code file} with a later time than it holds now (a single
   * write at start would not do), and returns that time.
   */
  static Instant awaitRewritten(Path file, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    Instant first = null;
    while (System.nanoTime() < deadline) {
      Instant now = read(file);
      if (first == null) {
        first = now;
      } else if (now != null && now.isAfter(first)) {
        return now;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        "the heartbeat file "
            + file
            + " was not rewritten within "
            + timeout
            + " (first seen: "
            + first
            + ", now: "
            + read(file)
            + ")");
  }

  private static Instant read(Path file) throws IOException {
    try {
      return Instant.parse(Files.readString(file).strip());
    } catch (java.nio.file.NoSuchFileException | java.time.format.DateTimeParseException e) {
      return null;
    }
  }
}
