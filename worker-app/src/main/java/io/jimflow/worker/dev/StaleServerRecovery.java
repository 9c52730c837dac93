package io.jimflow.worker.dev;

import io.jimflow.common.PostmasterPid;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link EmbeddedStoreServer#start} does about a lock file ({@code postmaster.pid}) that a
 * server left behind when it did not shut down cleanly.
 */
final class StaleServerRecovery {

  // The embedded store's logger: its messages read as before, whichever class writes them.
  private static final Logger log = LoggerFactory.getLogger(EmbeddedStoreServer.class);

  private StaleServerRecovery() {}

  /**
   * Handles a lock file left by a server that did not shut down cleanly: waits for its last
   * processes to end (they hold its shared memory), and removes a lock file whose process id now
   * belongs to another program. PostgreSQL itself replaces the lock file of a process that is gone.
   *
   * @return what was found, for the banner; empty for a clean start
   */
  static String recoverStale(Path data) {
    Optional<Long> pid = PostmasterPid.read(data);
    if (pid.isEmpty()) {
      return "";
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!serverProcesses(data).isEmpty() && System.nanoTime() < deadline) {
      EmbeddedStoreServer.sleep(Duration.ofMillis(100));
    }
    List<ProcessHandle> left = serverProcesses(data);
    if (!left.isEmpty()) {
      throw new DevServerException(
          "Processes of an earlier embedded PostgreSQL in "
              + data
              + " are still running ("
              + left.stream().map(p -> Long.toString(p.pid())).toList()
              + "); stop them and try again");
    }
    if (ProcessHandle.of(pid.get()).map(ProcessHandle::isAlive).orElse(false)) {
      // The id went to another program: the lock file would make PostgreSQL refuse to start.
      try {
        Files.deleteIfExists(data.resolve(PostmasterPid.FILE));
      } catch (IOException e) {
        throw new DevServerException(
            "Cannot remove the stale " + data.resolve("postmaster.pid"), e);
      }
    }
    String found =
        "recovered: the last server (process "
            + pid.get()
            + ") had not shut down cleanly, PostgreSQL replays its write-ahead log";
    log.warn("Embedded PostgreSQL in {}: {}", data, found);
    return found;
  }

  /** The PostgreSQL processes serving this data directory (they run in it), on Linux. */
  private static List<ProcessHandle> serverProcesses(Path data) {
    List<ProcessHandle> found = new ArrayList<>();
    Path proc = Path.of("/proc");
    if (!Files.isDirectory(proc)) {
      return found;
    }
    Path real;
    try {
      real = data.toRealPath();
    } catch (IOException e) {
      return found;
    }
    try (Stream<Path> entries = Files.list(proc)) {
      for (Path entry : entries.toList()) {
        String name = entry.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          if (Files.readSymbolicLink(entry.resolve("cwd")).equals(real)) {
            ProcessHandle.of(Long.parseLong(name))
                .filter(PostmasterPid::isPostgres)
                .ifPresent(found::add);
          }
        } catch (IOException | RuntimeException gone) {
          // Ended meanwhile, or not ours to look at.
        }
      }
    } catch (IOException e) {
      return found;
    }
    return found;
  }
}
