package io.jimflow.e2e;

import io.jimflow.testing.TestPostgres;
import io.jimflow.worker.dev.EmbeddedDirectory;
import io.jimflow.worker.dev.TemporalCli;
import io.temporal.client.WorkflowClient;
import io.temporal.client.schedules.ScheduleClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * jimflow's production topology on one machine: the official Temporal server on PostgreSQL (started
 * by {@code scripts/start-temporal-server.sh}), jimflow's store in a schema of its own on the same
 * PostgreSQL, and three worker processes from the built jar sharing one data directory (the shared
 * volume of the compose file), one executables root and one LDAP directory (the shipped "Directory"
 * system; an {@link EmbeddedDirectory} on a free port, as the compose file's directory service).
 *
 * <p>PostgreSQL: the external one of the tests ({@link TestPostgres#external()}: {@code
 * JIMFLOW_TEST_POSTGRES_URL}, {@code JIMFLOW_TEST_POSTGRES_USER}, {@code
 * JIMFLOW_TEST_POSTGRES_PASSWORD}, default localhost:5432); Temporal's databases {@code
 * JIMFLOW_TEST_TEMPORAL_DB} (default temporal_test) and {@code JIMFLOW_TEST_TEMPORAL_VISIBILITY_DB}
 * (default temporal_visibility_test) on that server, which {@code scripts/start-test-postgres.sh}
 * creates. Their tables are reset at every run.
 */
public final class TopologyEnvironment implements AutoCloseable {

  public static final int WORKERS = 3;
  public static final String NAMESPACE = "default";

  /**
   * A step program of the tests: counts like {@code count.sh}, resuming from its checkpoint, and
   * appends one line to a ledger file when it has counted to the end.
   */
  public static final String RECORDER = "count-and-record.sh";

  private final Path projectHome;
  private final Path workDir;
  private final TemporalServerProcess server;
  private final PostgresSettings postgres;
  private final String storeSchema;
  private final E2eClients clients;
  private final List<WorkerProcess> workers = new ArrayList<>();
  private final EmbeddedDirectory directory;
  private int workersStarted;

  private TopologyEnvironment(
      Path projectHome,
      Path workDir,
      TemporalServerProcess server,
      PostgresSettings postgres,
      String storeSchema) {
    this.projectHome = projectHome;
    this.workDir = workDir;
    this.server = server;
    this.postgres = postgres;
    this.storeSchema = storeSchema;
    this.directory =
        EmbeddedDirectory.start(
            0,
            workDir.resolve("directory-" + storeSchema + ".ldif"),
            E2eEnvironment.DIRECTORY_PASSWORD);
    // The same server for the whole run: its address never changes, also across restarts.
    this.clients = new E2eClients(server.target(), NAMESPACE);
  }

  /** PostgreSQL as the tests reach it. */
  record PostgresSettings(String url, String user, String password) {

    static PostgresSettings fromEnvironment() {
      TestPostgres.Server external = TestPostgres.external();
      return new PostgresSettings(external.url(), external.user(), external.password());
    }

    Connection connect() throws SQLException {
      return DriverManager.getConnection(url, user, password);
    }

    TemporalServerProcess.Databases temporalDatabases() {
      URI uri = URI.create(url.substring("jdbc:".length()));
      return new TemporalServerProcess.Databases(
          uri.getHost(),
          uri.getPort() < 0 ? 5432 : uri.getPort(),
          user,
          password,
          env("JIMFLOW_TEST_TEMPORAL_DB", "temporal_test"),
          env("JIMFLOW_TEST_TEMPORAL_VISIBILITY_DB", "temporal_visibility_test"));
    }

    String inSchema(String schema) {
      return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }
  }

  /** Starts the server (on reset databases), a fresh store schema and three workers. */
  public static TopologyEnvironment start() {
    Path projectHome =
        TemporalCli.projectHome()
            .orElseThrow(() -> new IllegalStateException("jimflow checkout not found"));
    Path workDir = projectHome.resolve("worker-app/target/topology");
    PostgresSettings postgres = PostgresSettings.fromEnvironment();
    String schema = "topology_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try {
      Files.createDirectories(workDir);
      prepareExecutablesRoot(projectHome, workDir.resolve("steps"));
      try (Connection connection = postgres.connect();
          Statement sql = connection.createStatement()) {
        sql.execute("create schema " + schema);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the store schema: " + e.getMessage(), e);
    }
    TemporalServerProcess server =
        TemporalServerProcess.startFresh(
            projectHome, workDir.resolve("temporal-server"), postgres.temporalDatabases());
    TopologyEnvironment env =
        new TopologyEnvironment(projectHome, workDir, server, postgres, schema);
    try {
      env.topUpWorkers();
      return env;
    } catch (RuntimeException e) {
      env.close();
      throw e;
    }
  }

  /** The shipped step programs plus the tests' own, in one executables root for every worker. */
  private static void prepareExecutablesRoot(Path projectHome, Path root) throws IOException {
    Files.createDirectories(root);
    try (Stream<Path> shipped = Files.list(projectHome.resolve("scripts/steps"))) {
      for (Path program : shipped.toList()) {
        Files.copy(
            program, root.resolve(program.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    Path recorder = root.resolve(RECORDER);
    Files.writeString(
        recorder,
        """
        #!/bin/sh
        # count.sh (resuming from its checkpoint), then one line appended to LEDGER once it has
        # counted to the end: what ran to completion, and in which attempt.
        # Usage: count-and-record.sh LEDGER N INTERVAL
        set -eu
        ledger=$1
        shift
        "$(dirname "$0")/count.sh" "$@"
        echo "$JIMFLOW_EXECUTION_ID|$JIMFLOW_STEP_NAME|${JIMFLOW_ATTEMPT:-1}" >> "$ledger"
        """);
    recorder.toFile().setExecutable(true);
  }

  /** Starts workers until {@link #WORKERS} are alive, all at once. */
  public synchronized List<WorkerProcess> topUpWorkers() {
    workers.removeIf(w -> !w.isAlive());
    List<CompletableFuture<WorkerProcess>> starting = new ArrayList<>();
    while (workers.size() + starting.size() < WORKERS) {
      String name = "topology-worker-" + ++workersStarted;
      starting.add(CompletableFuture.supplyAsync(() -> startWorker(name)));
    }
    for (CompletableFuture<WorkerProcess> worker : starting) {
      workers.add(worker.join());
    }
    return List.copyOf(workers);
  }

  /** One more worker process like the others (not counted until {@link #topUpWorkers}). */
  public WorkerProcess startWorker(String name) {
    Map<String, String> env = new HashMap<>();
    E2eClients.workerDefaults(env, server.target(), NAMESPACE, projectHome, dataDirectory());
    env.put("JIMFLOW_STORE_URL", postgres.inSchema(storeSchema));
    env.put("JIMFLOW_STORE_USERNAME", postgres.user());
    env.put("JIMFLOW_STORE_PASSWORD", postgres.password());
    env.put("JIMFLOW_DIRECTORY_URL", directory.url());
    env.put(EmbeddedDirectory.PASSWORD_VARIABLE, E2eEnvironment.DIRECTORY_PASSWORD);
    env.put("JIMFLOW_STEPS_EXECUTABLES_ROOT", executablesRoot().toString());
    // The shipped allow-list plus the tests' own program (a list from the environment replaces
    // the one in application.yaml as a whole).
    env.put("JIMFLOW_STEPS_EXECUTABLES_ALLOWED_0_PROGRAM", "count.sh");
    env.put("JIMFLOW_STEPS_EXECUTABLES_ALLOWED_0_ARGS", "\\d+( [0-9]+(\\.[0-9]+)?)?");
    env.put("JIMFLOW_STEPS_EXECUTABLES_ALLOWED_1_PROGRAM", "fail.sh");
    env.put("JIMFLOW_STEPS_EXECUTABLES_ALLOWED_2_PROGRAM", RECORDER);
    env.put("JIMFLOW_STEPS_EXECUTABLES_ALLOWED_2_ARGS", "/[^ ]+ \\d+ [0-9]+(\\.[0-9]+)?");
    try {
      WorkerProcess worker =
          WorkerProcess.launch(
              name, projectHome, Files.createTempDirectory(workDir, name + "-"), env);
      worker.awaitHealthy(Duration.ofSeconds(180));
      return worker;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The live workers of the topology. */
  public synchronized List<WorkerProcess> workers() {
    workers.removeIf(w -> !w.isAlive());
    return List.copyOf(workers);
  }

  /** The worker whose identity (the SDK's "pid@host") is given, if it is one of ours. */
  public synchronized Optional<WorkerProcess> workerByIdentity(String identity) {
    return workers.stream().filter(w -> identity.startsWith(w.pid() + "@")).findFirst();
  }

  TemporalServerProcess server() {
    return server;
  }

  public long serverPid() {
    return server.pid();
  }

  /** The names of the Temporal server's persistence and visibility databases. */
  public List<String> temporalDatabaseNames() {
    TemporalServerProcess.Databases databases = postgres.temporalDatabases();
    return List.of(databases.db(), databases.visibilityDb());
  }

  public String target() {
    return server.target();
  }

  public String namespace() {
    return NAMESPACE;
  }

  public WorkflowClient client() {
    return clients.client();
  }

  public ScheduleClient scheduleClient() {
    return clients.scheduleClient();
  }

  public Path projectHome() {
    return projectHome;
  }

  /**
   * The directory every worker resolves connected-system files against ({@code data/hr.csv} and the
   * export targets lie below it): one directory shared by all replicas.
   */
  public Path dataDirectory() {
    return workDir.resolve("data-plane");
  }

  public Path executablesRoot() {
    return workDir.resolve("steps");
  }

  /** A fresh directory for one test's files. */
  public Path newDirectory(String name) {
    try {
      return Files.createTempDirectory(workDir, name + "-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The directory every worker exports the shipped "Directory" system to. */
  public EmbeddedDirectory directory() {
    return directory;
  }

  /** A connection to the workers' store (its schema is the connection's current one). */
  public Connection store() throws SQLException {
    Connection connection = postgres.connect();
    connection.setSchema(storeSchema);
    return connection;
  }

  @Override
  public synchronized void close() {
    for (WorkerProcess worker : workers) {
      worker.kill();
    }
    directory.close();
    try {
      clients.close();
      server.close();
    } finally {
      try (Connection connection = postgres.connect();
          Statement sql = connection.createStatement()) {
        sql.execute("drop schema if exists " + storeSchema + " cascade");
      } catch (SQLException e) {
        System.err.println("topology: could not drop schema " + storeSchema + ": " + e);
      }
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
