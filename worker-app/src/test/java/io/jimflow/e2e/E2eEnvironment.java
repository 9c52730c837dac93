package io.jimflow.e2e;

import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.common.SearchAttributeSetup;
import io.jimflow.testing.TestPostgres;
import io.jimflow.worker.dev.DevServer;
import io.jimflow.worker.dev.DevServerException;
import io.jimflow.worker.dev.EmbeddedDirectory;
import io.jimflow.worker.dev.TemporalCli;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.RegisterNamespaceRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * One real Temporal dev server for the whole test run (started on free ports with its own SQLite
 * file), clients connected to it, and real worker processes started from the built worker jar.
 *
 * <p>The shipped "Directory" connected system is an LDAP directory: workers on the shipped
 * configuration get one (an {@link EmbeddedDirectory} on a free port) per store, so that the
 * directory's entries always match the connector space of the store beside it.
 */
public final class E2eEnvironment implements AutoCloseable {

  /**
   * The dev server's flags: those of {@code ./jimflow dev}, or for comparisons the system property
   * {@code jimflow.e2e.serverArgs} (space-separated flags; "none" for none).
   */
  private static final List<String> SERVER_ARGS =
      serverArgs(System.getProperty("jimflow.e2e.serverArgs"));

  private final DevServer server;
  private final Path workDir;
  private final Path projectHome;
  private final E2eClients clients;
  private final List<WorkerProcess> workers = new ArrayList<>();
  private WorkerProcess sharedWorker;
  private final Map<String, EmbeddedDirectory> directories = new HashMap<>();
  private TestStore sharedStore;

  /** The bind password of the run's directories: a value no history or log may show. */
  public static final String DIRECTORY_PASSWORD = "e2e-directory-" + UUID.randomUUID();

  private E2eEnvironment(DevServer server, Path workDir, Path projectHome) {
    this.server = server;
    this.workDir = workDir;
    this.projectHome = projectHome;
    this.clients = new E2eClients(server.target(), server.namespace());
  }

  /**
   * Starts the dev server. E2E tests are never skipped for a missing CLI: it is located or
   * installed (see {@link TemporalCli}), or the run fails with the error that says how to install
   * it.
   */
  public static E2eEnvironment start() {
    Path projectHome =
        TemporalCli.projectHome()
            .orElseThrow(
                () ->
                    new DevServerException(
                        "jimflow checkout not found above " + Path.of("").toAbsolutePath()));
    Path workDir;
    try {
      workDir = Files.createDirectories(projectHome.resolve("worker-app/target/e2e"));
    } catch (IOException e) {
      throw new DevServerException("Cannot create " + projectHome + "/worker-app/target/e2e", e);
    }
    Path cli = TemporalCli.locate(Optional.of(projectHome));
    // Our two ports are reserved (see ReservedPorts); the server's own picks come from the
    // ephemeral range, which the reservations stay out of.
    Path db = workDir.resolve("temporal-" + ProcessHandle.current().pid() + ".db");
    DevServer.Options options =
        new DevServer.Options(
            cli,
            "127.0.0.1",
            ReservedPorts.reserve(),
            ReservedPorts.reserve(),
            db,
            workDir.resolve("temporal-server.log"),
            "default",
            SERVER_ARGS,
            Duration.ofSeconds(90));
    return new E2eEnvironment(DevServer.start(options), workDir, projectHome);
  }

  private static List<String> serverArgs(String property) {
    if (property == null || property.isBlank()) {
      return DevServer.LOW_LATENCY_ARGS;
    }
    return property.strip().equals("none") ? List.of() : List.of(property.strip().split("\\s+"));
  }

  public String target() {
    return server.target();
  }

  public String namespace() {
    return server.namespace();
  }

  public String uiUrl() {
    return server.uiUrl();
  }

  public DevServer server() {
    return server;
  }

  public WorkflowClient client() {
    return clients.client();
  }

  public ScheduleClient scheduleClient() {
    return clients.scheduleClient();
  }

  public WorkflowServiceStubs stubs() {
    return clients.stubs();
  }

  public Path projectHome() {
    return projectHome;
  }

  /**
   * The directory the run's workers resolve the connected systems' files against ({@code
   * data/hr.csv} and the export targets lie below it), unless a test sets its own.
   */
  public Path dataPlaneDirectory() {
    return workDir.resolve("data-plane");
  }

  /**
   * The shipped connected systems with the Directory as a CSV file, for tests of what does not
   * depend on the connector (see {@code JIMFLOW_DATA_PLANE_CONFIG}).
   */
  public static Path csvConnectedSystems() {
    return TemporalCli.projectHome()
        .orElseThrow()
        .resolve("activities/src/test/resources/connected-systems-csv.yaml");
  }

  /** A fresh directory under {@code worker-app/target/e2e} for one test's files. */
  public Path newDirectory(String name) {
    try {
      return Files.createTempDirectory(workDir, name + "-");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Registers a fresh namespace (with jimflow's search attributes) for a test whose workers must be
   * the only ones polling, e.g. a crash test that must know which worker runs a step.
   */
  public String newNamespace(String prefix) {
    String name = newBareNamespace(prefix);
    new SearchAttributeSetup(stubs(), name).registerMissing();
    return name;
  }

  /** Registers a fresh namespace without jimflow's search attributes, e.g. to test their setup. */
  public String newBareNamespace(String prefix) {
    String name = prefix + "-" + Long.toHexString(System.nanoTime());
    stubs()
        .blockingStub()
        .registerNamespace(
            RegisterNamespaceRequest.newBuilder()
                .setNamespace(name)
                .setWorkflowExecutionRetentionPeriod(
                    com.google.protobuf.Duration.newBuilder().setSeconds(86_400))
                .build());
    // The frontend's namespace cache learns of it after a moment; wait until a call in it works.
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      try {
        stubs()
            .blockingStub()
            .listWorkflowExecutions(
                ListWorkflowExecutionsRequest.newBuilder()
                    .setNamespace(name)
                    .setPageSize(1)
                    .build());
        return name;
      } catch (RuntimeException notYet) {
        if (System.nanoTime() > deadline) {
          throw notYet;
        }
        try {
          Thread.sleep(250);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
    }
  }

  /** A client of {@code namespace} on this server. */
  public WorkflowClient client(String namespace) {
    return clients.client(namespace);
  }

  /** The search attribute names every e2e server has registered. */
  public List<String> searchAttributeNames() {
    return JimflowSearchAttributes.ALL.stream()
        .map(JimflowSearchAttributes.Registration::name)
        .toList();
  }

  /**
   * Starts a real worker process from the built jar against this server and waits until its health
   * is UP.
   *
   * @param env extra environment (Spring settings by their env names, e.g. {@code
   *     JIMFLOW_WORKER_SHUTDOWN_GRACE_PERIOD})
   */
  public synchronized WorkerProcess startWorker(String name, Map<String, String> env) {
    WorkerProcess worker = launchWorker(name, env);
    worker.awaitHealthy(Duration.ofSeconds(90));
    return worker;
  }

  /** Starts a real worker process like {@link #startWorker} but does not wait for it. */
  public synchronized WorkerProcess launchWorker(String name, Map<String, String> env) {
    Map<String, String> full = new HashMap<>(env);
    // The run's own store and data files, never the checkout's data/ (a ./jimflow dev may use it).
    E2eClients.workerDefaults(
        full, server.target(), server.namespace(), projectHome, dataPlaneDirectory());
    if (!full.containsKey("JIMFLOW_STORE_URL")) {
      full.putAll(sharedStore().environment());
    }
    if (!full.containsKey("JIMFLOW_DATA_PLANE_CONFIG")
        && !full.containsKey("JIMFLOW_DIRECTORY_URL")) {
      full.put("JIMFLOW_DIRECTORY_URL", directory(full.get("JIMFLOW_STORE_URL")).url());
      full.put(EmbeddedDirectory.PASSWORD_VARIABLE, DIRECTORY_PASSWORD);
    }
    WorkerProcess worker = WorkerProcess.launch(name, projectHome, newDirectory(name), full);
    workers.add(worker);
    return worker;
  }

  /**
   * The store of workers started without their own {@code JIMFLOW_STORE_URL}: a schema of the
   * tests' PostgreSQL ({@link TestPostgres}), one per run (like the server's database), so a second
   * run in the same checkout starts empty too.
   */
  private synchronized TestStore sharedStore() {
    if (sharedStore == null) {
      sharedStore = newStore();
    }
    return sharedStore;
  }

  /** The given worker settings with a store of their own: a new schema of the tests' PostgreSQL. */
  public static Map<String, String> withOwnStore(Map<String, String> env) {
    Map<String, String> full = new HashMap<>(newStore().environment());
    full.putAll(env);
    return full;
  }

  /** A store of its own for a test's workers: a new schema of the tests' PostgreSQL. */
  public static TestStore newStore() {
    return new TestStore(TestPostgres.newSchema());
  }

  /** A store of the tests' PostgreSQL as workers reach it. */
  public record TestStore(TestPostgres.Schema schema) {

    /**
     * The workers' settings for it: {@code JIMFLOW_STORE_URL}, {@code _USERNAME}, {@code
     * _PASSWORD}.
     */
    public Map<String, String> environment() {
      return Map.of(
          "JIMFLOW_STORE_URL",
          schema.schemaUrl(),
          "JIMFLOW_STORE_USERNAME",
          schema.user(),
          "JIMFLOW_STORE_PASSWORD",
          schema.password());
    }

    public String url() {
      return schema.schemaUrl();
    }

    /** A connection to it, to look at what the workers stored. */
    public java.sql.Connection connect() throws java.sql.SQLException {
      return schema.connect();
    }
  }

  /**
   * The directory (the shipped "Directory" system) of the workers on this store, started on a free
   * port on first use; bind as {@link EmbeddedDirectory#BIND_DN} with {@link #DIRECTORY_PASSWORD}.
   */
  public synchronized EmbeddedDirectory directory(String storeUrl) {
    return directories.computeIfAbsent(
        storeUrl,
        url ->
            EmbeddedDirectory.start(
                0, newDirectory("directory").resolve("directory.ldif"), DIRECTORY_PASSWORD));
  }

  /** The directory of the workers on the run's shared store, e.g. {@link #sharedWorker()}. */
  public EmbeddedDirectory sharedDirectory() {
    return directory(sharedStore().url());
  }

  /** One worker process shared by all tests that need just "a worker" (started on first use). */
  public synchronized WorkerProcess sharedWorker() {
    if (sharedWorker == null || !sharedWorker.isAlive()) {
      sharedWorker = startWorker("shared-worker", Map.of());
    }
    return sharedWorker;
  }

  @Override
  public synchronized void close() {
    for (WorkerProcess worker : workers) {
      worker.kill();
    }
    directories.values().forEach(EmbeddedDirectory::close);
    try {
      clients.close();
    } finally {
      server.close();
    }
  }
}
