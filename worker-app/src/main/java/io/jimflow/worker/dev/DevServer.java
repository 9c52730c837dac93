package io.jimflow.worker.dev;

import io.jimflow.common.JimflowSearchAttributes;
import io.temporal.api.workflowservice.v1.DescribeNamespaceRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Temporal dev server ({@code temporal server start-dev}) run by jimflow: for {@code ./jimflow
 * dev} and for the end-to-end tests. It persists to a SQLite file, serves the Web UI, and registers
 * jimflow's search attributes at start.
 */
public final class DevServer implements AutoCloseable {

  /**
   * The history transfer queue's reads per second per shard (also in the compose dynamic config).
   */
  public static final int TRANSFER_POLL_RPS = 100;

  /**
   * The server settings jimflow's dev servers run with ({@code ./jimflow dev} and the end-to-end
   * tests), for short step latencies:
   *
   * <ul>
   *   <li>eager activity execution: a step a workflow task schedules comes back in that task's
   *       answer instead of through a separate poll. A production server needs the same dynamic
   *       config (docker-compose.yml sets it; see docs/deployment.md).
   *   <li>a transfer queue read rate of {@link #TRANSFER_POLL_RPS} per history shard instead of 20:
   *       every step group advance needs a read of that queue (to hand the next workflow task to
   *       the worker), so at 20 reads per second a lone execution advanced at most every 50 ms.
   *       Production needs it too, like eager execution.
   *   <li>SQLite in WAL mode with {@code synchronous=NORMAL}: one disk flush per checkpoint instead
   *       of several per transaction. A crash of the server process loses nothing; a power cut may
   *       lose the last transactions, never the database (fine for a dev server; production runs on
   *       PostgreSQL).
   * </ul>
   */
  public static final List<String> LOW_LATENCY_ARGS =
      List.of(
          "--dynamic-config-value",
          "system.enableActivityEagerExecution=true",
          "--dynamic-config-value",
          "history.transferProcessorMaxPollRPS=" + DevServer.TRANSFER_POLL_RPS,
          "--sqlite-pragma",
          "journal_mode=wal",
          "--sqlite-pragma",
          "synchronous=normal");

  /** How to start a dev server. */
  public record Options(
      Path cli,
      String ip,
      int port,
      int uiPort,
      Path databaseFile,
      Path logFile,
      String namespace,
      List<String> extraArgs,
      Duration startupTimeout) {

    /**
     * The embedded default of {@code ./jimflow dev}: gRPC 7233, UI 8233, {@code data/temporal.db}.
     */
    public static Options embeddedDefault(Path cli, Path projectHome) {
      return new Options(
          cli,
          "127.0.0.1",
          7233,
          8233,
          projectHome.resolve("data/temporal.db"),
          projectHome.resolve("data/temporal-server.log"),
          "default",
          LOW_LATENCY_ARGS,
          Duration.ofSeconds(60));
    }

    /** These options with the UI decoding payloads through the codec server at {@code url}. */
    public Options withUiCodecEndpoint(String url) {
      List<String> args = new ArrayList<>(extraArgs);
      args.addAll(List.of("--ui-codec-endpoint", url));
      return new Options(
          cli,
          ip,
          port,
          uiPort,
          databaseFile,
          logFile,
          namespace,
          List.copyOf(args),
          startupTimeout);
    }
  }

  private final Options options;
  private final Process process;

  private DevServer(Options options, Process process) {
    this.options = options;
    this.process = process;
  }

  /**
   * Starts a dev server and waits until its namespace answers.
   *
   * @throws DevServerException naming the log file when it does not come up in time
   */
  public static DevServer start(Options options) {
    List<String> command = new ArrayList<>();
    command.add(options.cli().toString());
    command.addAll(
        List.of(
            "server",
            "start-dev",
            "--ip",
            options.ip(),
            "--port",
            Integer.toString(options.port()),
            "--ui-port",
            Integer.toString(options.uiPort()),
            "--db-filename",
            options.databaseFile().toString(),
            "--namespace",
            options.namespace(),
            "--log-level",
            "warn"));
    for (JimflowSearchAttributes.Registration sa : JimflowSearchAttributes.ALL) {
      command.add("--search-attribute");
      command.add(sa.asCliFlagValue());
    }
    command.addAll(options.extraArgs());
    try {
      Files.createDirectories(options.databaseFile().toAbsolutePath().getParent());
      Files.createDirectories(options.logFile().toAbsolutePath().getParent());
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(options.logFile().toFile()))
              .start();
      process.getOutputStream().close();
      DevServer server = new DevServer(options, process);
      server.awaitReady();
      return server;
    } catch (IOException e) {
      throw new DevServerException(
          "Could not start the Temporal dev server (" + options.cli() + "): " + e.getMessage(), e);
    }
  }

  /** Whether something accepts TCP connections on host:port (e.g. a dev server already running). */
  public static boolean isListening(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** A TCP port nobody listens on right now. */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new DevServerException("No free TCP port: " + e.getMessage(), e);
    }
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + options.startupTimeout().toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new DevServerException(
            "The Temporal dev server exited with code "
                + process.exitValue()
                + " at start; see "
                + options.logFile()
                + (isListening(options.ip(), options.port())
                    ? " (port " + options.port() + " is taken by another process)"
                    : ""));
      }
      if (isListening(options.ip(), options.port()) && namespaceAnswers()) {
        return;
      }
      sleep(Duration.ofMillis(200));
    }
    close();
    throw new DevServerException(
        "The Temporal dev server did not answer within "
            + options.startupTimeout().toSeconds()
            + " s; see "
            + options.logFile());
  }

  private boolean namespaceAnswers() {
    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(target()).build());
    try {
      stubs
          .blockingStub()
          .withDeadlineAfter(2, TimeUnit.SECONDS)
          .describeNamespace(
              DescribeNamespaceRequest.newBuilder().setNamespace(options.namespace()).build());
      return true;
    } catch (RuntimeException notYet) {
      return false;
    } finally {
      stubs.shutdownNow();
    }
  }

  /** The gRPC address clients and workers connect to, e.g. {@code 127.0.0.1:7233}. */
  public String target() {
    return options.ip() + ":" + options.port();
  }

  public String namespace() {
    return options.namespace();
  }

  /** The Web UI's address. */
  public String uiUrl() {
    return "http://localhost:" + options.uiPort();
  }

  public Options options() {
    return options;
  }

  public boolean isRunning() {
    return process.isAlive();
  }

  /**
   * Kills the server at once (SIGKILL), as a crash or the kernel's out-of-memory killer would; its
   * SQLite file keeps what it had committed.
   */
  public void kill() {
    try {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the server (SIGTERM, then SIGKILL after 10 s); its SQLite file keeps what it stored. */
  @Override
  public void close() {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DevServerException("Interrupted while waiting for the dev server", e);
    }
  }
}
