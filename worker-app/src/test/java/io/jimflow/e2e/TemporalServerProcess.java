package io.jimflow.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The official Temporal server on PostgreSQL, started and stopped through {@code
 * scripts/start-temporal-server.sh} and {@code scripts/stop-temporal-server.sh}, as a user without
 * containers runs it.
 */
final class TemporalServerProcess implements AutoCloseable {

  /** The first start may build the server from its Go module; later starts take seconds. */
  private static final Duration START_TIMEOUT = Duration.ofMinutes(20);

  /** Temporal keeps its services' ports in a PostgreSQL smallint. */
  private static final int HIGHEST_PORT = 32_767;

  /** Where the server's PostgreSQL databases are and who may use them. */
  record Databases(
      String host, int port, String user, String password, String db, String visibilityDb) {}

  private final Path projectHome;
  private final Path dir;
  private final Databases databases;
  private final int port;
  private final List<Integer> internalPorts;

  private TemporalServerProcess(
      Path projectHome, Path dir, Databases databases, int port, List<Integer> internalPorts) {
    this.projectHome = projectHome;
    this.dir = dir;
    this.databases = databases;
    this.port = port;
    this.internalPorts = internalPorts;
  }

  /**
   * Starts a server on empty databases (its tables are reset), on ports reserved for this run (see
   * {@link ReservedPorts}) that it keeps across restarts.
   */
  static TemporalServerProcess startFresh(Path projectHome, Path dir, Databases databases) {
    int port = ReservedPorts.reserveUpTo(HIGHEST_PORT);
    List<Integer> internal = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      internal.add(ReservedPorts.reserveUpTo(HIGHEST_PORT));
    }
    TemporalServerProcess server =
        new TemporalServerProcess(projectHome, dir, databases, port, List.copyOf(internal));
    server.runScript(true);
    return server;
  }

  String target() {
    return "127.0.0.1:" + port;
  }

  /** SIGKILL: the server dies mid-work, as in a crash of its host process. */
  void kill() {
    ProcessHandle.of(pid())
        .ifPresent(
            process -> {
              process.destroyForcibly();
              try {
                process.onExit().get(30, TimeUnit.SECONDS);
              } catch (Exception e) {
                throw new IllegalStateException("Temporal server did not die", e);
              }
            });
  }

  /** Starts the server again on the same databases and ports. */
  void restart() {
    runScript(false);
  }

  long pid() {
    try {
      return Long.parseLong(Files.readString(dir.resolve("temporal-server.pid")).strip());
    } catch (IOException e) {
      throw new IllegalStateException("no pid file in " + dir, e);
    }
  }

  Path log() {
    return dir.resolve("temporal-server.log");
  }

  private void runScript(boolean reset) {
    List<String> command = new ArrayList<>();
    command.add("bash");
    command.add(projectHome.resolve("scripts/start-temporal-server.sh").toString());
    command.addAll(
        List.of(
            "--dir",
            dir.toString(),
            "--port",
            Integer.toString(port),
            "--internal-ports",
            String.join(",", internalPorts.stream().map(String::valueOf).toList()),
            "--db-host",
            databases.host(),
            "--db-port",
            Integer.toString(databases.port()),
            "--db-user",
            databases.user(),
            "--db-password",
            databases.password(),
            "--db",
            databases.db(),
            "--visibility-db",
            databases.visibilityDb()));
    if (reset) {
      command.add("--reset");
    }
    Path output = dir.resolveSibling(dir.getFileName() + "-script.log");
    int exit = run(command, output, START_TIMEOUT);
    if (exit != 0) {
      throw new IllegalStateException(
          "scripts/start-temporal-server.sh ended with "
              + exit
              + ":\n"
              + tail(output, 30)
              + "\nserver log:\n"
              + tail(log(), 30));
    }
  }

  @Override
  public void close() {
    run(
        List.of(
            "bash",
            projectHome.resolve("scripts/stop-temporal-server.sh").toString(),
            "--dir",
            dir.toString()),
        dir.resolveSibling(dir.getFileName() + "-stop.log"),
        Duration.ofMinutes(1));
  }

  private int run(List<String> command, Path output, Duration timeout) {
    try {
      Files.createDirectories(dir);
      Process process =
          new ProcessBuilder(command)
              .directory(projectHome.toFile())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
              .start();
      process.getOutputStream().close();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        return -1;
      }
      return process.exitValue();
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no " + file + ")";
    }
  }
}
