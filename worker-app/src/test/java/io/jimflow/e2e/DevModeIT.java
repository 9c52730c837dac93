package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.jimflow.client.MaintenanceClient;
import io.jimflow.client.WorkItemClient;
import io.jimflow.common.PostmasterPid;
import io.jimflow.worker.dev.DevServer;
import io.jimflow.worker.dev.TemporalCli;
import io.jimflow.workitem.WorkItemSpec;
import io.jimflow.workitem.WorkItemState;
import io.jimflow.workitem.WorkItemView;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./jimflow dev} as a user runs it: the embedded default on 7233/8233/8080/10389 and the
 * store's embedded PostgreSQL on 15432 (data in {@code data/postgres}), a second instance reusing
 * them, and SIGTERM ending both with exit code 0; a SIGKILLed one leaves its PostgreSQL running for
 * the next, which takes it over, and a PostgreSQL killed itself is recovered at the next start.
 */
class DevModeIT {

  private static final List<Integer> PORTS = List.of(7233, 8233, 8080, 10389, 15432);

  private static final Pattern HEALTH_URL =
      Pattern.compile("Worker health\\s+(http://localhost:\\d+/actuator/health)");

  /** The dev ports must be free: skipped off CI while a ./jimflow dev runs, failed on CI. */
  private static void requireFreePorts() {
    boolean portsFree = PORTS.stream().noneMatch(port -> DevServer.isListening("127.0.0.1", port));
    if (!"true".equals(System.getenv("CI"))) {
      assumeThat(portsFree)
          .as("ports " + PORTS + " must be free for the dev-mode test (stop ./jimflow dev)")
          .isTrue();
    }
    assertThat(portsFree).as("ports " + PORTS + " are free").isTrue();
  }

  @Test
  void devModeServesTheUiStaysHealthyAndStopsCleanlyOnSigterm(@TempDir Path home) throws Exception {
    requireFreePorts();

    Path projectHome = TemporalCli.projectHome().orElseThrow();
    Path cli = TemporalCli.locate(Optional.of(projectHome));
    Path heartbeat = home.resolve("healthcheck");

    Process first = startDev(projectHome, cli, home, heartbeat, home.resolve("first.log"));
    Process second = null;
    try {
      String firstBanner = awaitBanner(first, home.resolve("first.log"));
      assertThat(firstBanner)
          .contains("started here")
          .contains("Directory        ldap://127.0.0.1:10389 base dc=example,dc=org (started here")
          .contains("jimflow-dev-password")
          .contains(
              "Store            jdbc:postgresql://127.0.0.1:15432/jimflow (started here, cluster"
                  + " created; data in data/postgres");
      assertThat(DevServer.isListening("127.0.0.1", 10389)).isTrue();
      ProcessHandle postgres = PostmasterPid.runningServer(home.resolve("data/postgres")).get();
      assertThat(httpGet("http://localhost:8233/")).isEqualTo(200);
      assertThat(body(healthUrl(firstBanner)))
          .contains("\"status\":\"UP\"")
          .as("dev mode shows health details without a token")
          .contains("\"workersStarted\":true");
      // The UI decodes payloads through the worker's codec server.
      assertThat(firstBanner).contains("Codec server     http://localhost:8080/codec");
      assertThat(listeningAddresses(8080))
          .as("the worker's port (and its codec server) listens on loopback only")
          .isNotEmpty()
          .allMatch(a -> a.equals("127.0.0.1") || a.equals("::1"));
      assertThat(body("http://localhost:8233/api/v1/settings"))
          .contains("http://localhost:8080/codec");
      assertThat(httpPost("http://localhost:8080/codec/decode", "{\"payloads\":[]}"))
          .as("dev mode turns the codec server on, for the UI on loopback")
          .isEqualTo(200);
      Instant beat = HeartbeatFiles.awaitRewritten(heartbeat, Duration.ofSeconds(60));
      assertThat(Duration.between(beat, Instant.now())).isLessThan(Duration.ofSeconds(30));
      assertThat(Files.exists(home.resolve("data/temporal.db"))).isTrue();
      payloadsCannotReachBeyondTheDevRoots(home);

      second =
          startDev(
              projectHome, cli, home, home.resolve("healthcheck2"), home.resolve("second.log"));
      String secondBanner = awaitBanner(second, home.resolve("second.log"));
      assertThat(secondBanner)
          .contains("already running, reused")
          .contains("Store            jdbc:postgresql://127.0.0.1:15432/jimflow (already running,");
      assertThat(body(healthUrl(secondBanner))).contains("\"status\":\"UP\"");
      second.destroy();
      assertThat(second.waitFor(40, TimeUnit.SECONDS)).isTrue();
      assertThat(second.exitValue()).isZero();
      assertThat(body(healthUrl(firstBanner))).contains("\"status\":\"UP\"");
      assertThat(postgres.isAlive())
          .as("the second left the first one's PostgreSQL running")
          .isTrue();

      long stopping = System.nanoTime();
      first.destroy();
      assertThat(first.waitFor(40, TimeUnit.SECONDS)).isTrue();
      assertThat(first.exitValue()).isZero();
      assertThat(Duration.ofNanos(System.nanoTime() - stopping)).isLessThan(Duration.ofSeconds(35));
      assertThat(DevServer.isListening("127.0.0.1", 7233)).isFalse();
      assertThat(DevServer.isListening("127.0.0.1", 10389)).isFalse();
      assertThat(postgres.isAlive()).as("the first stopped its PostgreSQL").isFalse();
      assertThat(Files.exists(home.resolve("data/postgres/postmaster.pid")))
          .as("a clean shutdown")
          .isFalse();
      // Kept for the next start.
      assertThat(Files.readString(home.resolve("data/directory.ldif")))
          .contains("dn: ou=people,dc=example,dc=org");
    } finally {
      first.destroyForcibly();
      if (second != null) {
        second.destroyForcibly();
      }
      stopLeftovers(home);
    }
  }

  @Test
  void aSigkilledDevLeavesItsPostgresToTheNextAndAKilledPostgresIsRecovered(@TempDir Path home)
      throws Exception {
    requireFreePorts();
    Path projectHome = TemporalCli.projectHome().orElseThrow();
    Path cli = TemporalCli.locate(Optional.of(projectHome));
    Path data = home.resolve("data/postgres");
    // An H2 store left by an earlier version: named once, not read.
    Files.createDirectories(home.resolve("data"));
    Files.writeString(home.resolve("data/jimflow.mv.db"), "earlier");
    Process first =
        startDev(projectHome, cli, home, home.resolve("hb1"), home.resolve("first.log"));
    Process second = null;
    Process third = null;
    try {
      awaitBanner(first, home.resolve("first.log"));
      ProcessHandle postgres = PostmasterPid.runningServer(data).orElseThrow();
      first.destroyForcibly();
      assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(postgres.isAlive()).as("PostgreSQL outlives a SIGKILLed worker").isTrue();
      // What the killed worker left besides: its Temporal dev server, which the next one reuses.

      second = startDev(projectHome, cli, home, home.resolve("hb2"), home.resolve("second.log"));
      String secondBanner = awaitBanner(second, home.resolve("second.log"));
      assertThat(secondBanner)
          .contains(
              "Store            jdbc:postgresql://127.0.0.1:15432/jimflow (already running,"
                  + " taken over from a worker that is gone; data in data/postgres");
      assertThat(PostmasterPid.runningServer(data)).contains(postgres);

      postgres.destroyForcibly();
      assertThat(postgres.onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();
      second.destroy();
      assertThat(second.waitFor(40, TimeUnit.SECONDS)).isTrue();
      assertThat(Files.exists(data.resolve("postmaster.pid")))
          .as("the killed PostgreSQL's lock file is left behind")
          .isTrue();

      third = startDev(projectHome, cli, home, home.resolve("hb3"), home.resolve("third.log"));
      String thirdBanner = awaitBanner(third, home.resolve("third.log"));
      assertThat(thirdBanner).contains("(started here; recovered: the last server (process");
      assertThat(Files.readString(home.resolve("data/postgres.log")))
          .contains("database system was interrupted");
      assertThat(thirdBanner).containsOnlyOnce("jimflow.mv.db is the H2 store of an earlier");
      ProcessHandle recovered = PostmasterPid.runningServer(data).orElseThrow();
      third.destroy();
      assertThat(third.waitFor(40, TimeUnit.SECONDS)).isTrue();
      assertThat(third.exitValue()).isZero();
      assertThat(recovered.isAlive()).isFalse();
    } finally {
      for (Process process : java.util.Arrays.asList(first, second, third)) {
        if (process != null) {
          process.destroyForcibly();
        }
      }
      stopLeftovers(home);
    }
  }

  /**
   * Stops what a SIGKILLed dev worker left running: the Temporal dev server on its data file and
   * the PostgreSQL on its data directory.
   */
  private static void stopLeftovers(Path home) throws Exception {
    String temporalDb = home.resolve("data/temporal.db").toString();
    List<ProcessHandle> left =
        ProcessHandle.allProcesses()
            .filter(p -> p.info().commandLine().map(c -> c.contains(temporalDb)).orElse(false))
            .collect(java.util.stream.Collectors.toCollection(java.util.ArrayList::new));
    PostmasterPid.runningServer(home.resolve("data/postgres")).ifPresent(left::add);
    for (ProcessHandle process : left) {
      process.destroyForcibly();
      process.onExit().get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * In dev the shipped kinds run below data/work-items only, and example data goes below data/
   * only: a line-count item whose resultPath lies elsewhere ends in Error naming it, a generation
   * into another folder fails; neither writes anything.
   */
  private static void payloadsCannotReachBeyondTheDevRoots(Path home) throws Exception {
    Path outside = Files.createDirectories(home.resolve("outside"));
    Path numbers = home.resolve("data/work-items/numbers.txt");
    Files.writeString(numbers, "1\n2\n3\n");
    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:7233").build());
    try {
      WorkflowClient client = WorkflowClient.newInstance(stubs);
      WorkItemClient items = new WorkItemClient(client);
      Path hostile = outside.resolve("step.sh");
      String bad = UUID.randomUUID().toString();
      items.schedule(
          WorkItemSpec.of(
                  bad,
                  "line-count",
                  "{\"path\":\"" + numbers + "\",\"resultPath\":\"" + hostile + "\"}",
                  Instant.now())
              .withRestarts(0, Duration.ofSeconds(1)));
      String good = UUID.randomUUID().toString();
      Path result = home.resolve("data/work-items/result.jsonl");
      items.schedule(
          WorkItemSpec.of(
              good,
              "line-count",
              "{\"path\":\"" + numbers + "\",\"resultPath\":\"" + result + "\"}",
              Instant.now()));

      WorkItemView refused =
          client.newUntypedWorkflowStub(bad).getResult(60, TimeUnit.SECONDS, WorkItemView.class);
      WorkItemView counted =
          client.newUntypedWorkflowStub(good).getResult(60, TimeUnit.SECONDS, WorkItemView.class);

      assertThat(refused.state()).isEqualTo(WorkItemState.Error);
      assertThat(refused.log())
          .anyMatch(
              t ->
                  t.to() == WorkItemState.Error
                      && t.note() != null
                      && t.note().contains("resultPath '" + hostile + "' is outside"));
      assertThat(counted.state()).isEqualTo(WorkItemState.Finished);
      assertThat(Files.readString(result)).contains("\"lines\":3");

      MaintenanceClient maintenance = new MaintenanceClient(client);
      Path csv = outside.resolve("hr.csv");
      String generation = maintenance.startDataGeneration(5, csv.toString(), 1L, null);
      assertThatThrownBy(() -> maintenance.awaitDataGeneration(generation))
          .hasMessageContaining("outFile '" + csv + "' is outside the data directory");
      assertThat(outside).isEmptyDirectory();
    } finally {
      stubs.shutdownNow();
    }
  }

  /**
   * The local addresses of the IPv4 and IPv6 sockets listening on {@code port}, from the kernel's
   * table (no connection is made).
   */
  private static List<String> listeningAddresses(int port) throws IOException {
    List<String> addresses = new java.util.ArrayList<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path file = Path.of(table);
      if (!Files.exists(file)) {
        continue;
      }
      for (String line : Files.readAllLines(file).subList(1, Files.readAllLines(file).size())) {
        String[] f = line.strip().split("\\s+");
        String[] local = f[1].split(":");
        boolean listening = f[3].equals("0A");
        if (listening && Integer.parseInt(local[1], 16) == port) {
          addresses.add(decode(local[0]));
        }
      }
    }
    return addresses;
  }

  /** A /proc/net address: IPv4 as little-endian hex, IPv6 as four little-endian words. */
  private static String decode(String hex) {
    if (hex.length() == 8) {
      long v = Long.parseLong(hex, 16);
      return (v & 0xff) + "." + ((v >> 8) & 0xff) + "." + ((v >> 16) & 0xff) + "." + (v >> 24);
    }
    if (hex.equals("00000000000000000000000000000000")) {
      return "::";
    }
    if (hex.equals("0000000000000000FFFF00000100007F")) {
      return "127.0.0.1"; // IPv4-mapped loopback
    }
    if (hex.equals("00000000000000000000000001000000")) {
      return "::1";
    }
    return hex;
  }

  private static Process startDev(Path projectHome, Path cli, Path home, Path heartbeat, Path log)
      throws IOException {
    Path jar = projectHome.resolve("worker-app/target/jimflow-worker.jar");
    ProcessBuilder pb =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx512m",
                    "-jar",
                    jar.toString(),
                    "--dev"))
            .directory(home.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    pb.environment().put("JIMFLOW_HOME", home.toString());
    pb.environment().put("TEMPORAL_CLI", cli.toString());
    pb.environment().put("JIMFLOW_WORKER_HEARTBEAT_FILE", heartbeat.toString());
    pb.environment().put("JIMFLOW_WORKER_HEARTBEAT_INTERVAL", "1s");
    pb.environment().remove("SERVER_PORT");
    pb.environment().remove("TEMPORAL_ADDRESS");
    return pb.start();
  }

  private static String awaitBanner(Process process, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      String text = Files.exists(log) ? Files.readString(log) : "";
      if (text.contains("Stop with Ctrl+C")) {
        return text;
      }
      if (!process.isAlive()) {
        throw new AssertionError("./jimflow dev exited with " + process.exitValue() + ":\n" + text);
      }
      Thread.sleep(250);
    }
    throw new AssertionError("./jimflow dev did not come up in time:\n" + Files.readString(log));
  }

  private static String healthUrl(String banner) {
    Matcher m = HEALTH_URL.matcher(banner);
    assertThat(m.find()).as("banner names the health URL:\n" + banner).isTrue();
    return m.group(1);
  }

  private static int httpGet(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static int httpPost(String url, String json) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static String body(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
