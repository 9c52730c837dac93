package io.jimflow.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A real jimflow worker process (the built {@code jimflow-worker.jar}) run by an e2e test. */
public final class WorkerProcess {

  /** The management token test workers are started with (health details need it). */
  static final String MANAGEMENT_TOKEN = "e2e-operator-" + ProcessHandle.current().pid();

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final String name;
  private final Process process;
  private final int httpPort;
  private final Path log;
  private final Path heartbeatFile;

  private WorkerProcess(String name, Process process, int httpPort, Path log, Path heartbeatFile) {
    this.name = name;
    this.process = process;
    this.httpPort = httpPort;
    this.log = log;
    this.heartbeatFile = heartbeatFile;
  }

  /** Starts the process; the caller waits for health ({@link #awaitHealthy}) or the exit. */
  static WorkerProcess launch(String name, Path projectHome, Path dir, Map<String, String> env) {
    Path jar = projectHome.resolve("worker-app/target/jimflow-worker.jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "No worker jar at " + jar + ": e2e tests run in `./mvnw verify`, after `package`");
    }
    // A test that must know the port before the worker starts (e.g. a codec endpoint) passes one.
    int port =
        env.containsKey("SERVER_PORT")
            ? Integer.parseInt(env.get("SERVER_PORT"))
            : ReservedPorts.reserve();
    Path log = dir.resolve("worker.log");
    Path heartbeat = dir.resolve("healthcheck");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-jar");
    command.add(jar.toString());
    ProcessBuilder pb = new ProcessBuilder(command).directory(projectHome.toFile());
    pb.environment().putAll(env);
    pb.environment().put("SERVER_PORT", Integer.toString(port));
    pb.environment().putIfAbsent("JIMFLOW_WORKER_HEARTBEAT_FILE", heartbeat.toString());
    pb.environment().putIfAbsent("JIMFLOW_MANAGEMENT_ACCESS_TOKEN", MANAGEMENT_TOKEN);
    pb.environment().putIfAbsent("JIMFLOW_WORKER_HEARTBEAT_INTERVAL", "1s");
    pb.redirectErrorStream(true).redirectOutput(log.toFile());
    try {
      Process process = pb.start();
      process.getOutputStream().close();
      return new WorkerProcess(
          name, process, port, log, Path.of(pb.environment().get("JIMFLOW_WORKER_HEARTBEAT_FILE")));
    } catch (IOException e) {
      throw new IllegalStateException("Could not start worker " + name + ": " + e.getMessage(), e);
    }
  }

  void awaitHealthy(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "Worker " + name + " exited with " + process.exitValue() + "; log:\n" + logTail(40));
      }
      // The overall status comes first; components (e.g. "ping") carry their own "UP".
      if (health().startsWith("{\"status\":\"UP\"")) {
        return;
      }
      sleep(250);
    }
    kill();
    throw new IllegalStateException(
        "Worker " + name + " not healthy in time; log:\n" + logTail(40));
  }

  /** The actuator health document as an operator sees it (with details), "" when unanswered. */
  public String health() {
    return get("/actuator/health", MANAGEMENT_TOKEN);
  }

  /** GET on the worker's HTTP port; "" when it does not answer. */
  public String get(String path) {
    return get(path, null);
  }

  /** GET with {@code Authorization: Bearer <token>} unless null; "" when it does not answer. */
  public String get(String path, String token) {
    try {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
              .timeout(Duration.ofSeconds(5));
      if (token != null) {
        request.header("Authorization", "Bearer " + token);
      }
      HttpResponse<String> response =
          HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return response.body();
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  public long pid() {
    return process.pid();
  }

  public int httpPort() {
    return httpPort;
  }

  public Path heartbeatFile() {
    return heartbeatFile;
  }

  public Path log() {
    return log;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** SIGKILL: the worker dies mid-work, as in a crash. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * SIGTERM, then waits for the exit.
   *
   * @return the exit code, or -1 if it did not exit within {@code timeout}
   */
  public int terminate(Duration timeout) {
    process.destroy();
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /**
   * Waits for the process to end by itself.
   *
   * @return the exit code, or -1 if it still runs after {@code timeout}
   */
  public int awaitExit(Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  public String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(log);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
