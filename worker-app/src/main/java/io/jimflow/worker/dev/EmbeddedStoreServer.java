package io.jimflow.worker.dev;

import io.jimflow.common.PostmasterPid;
import io.jimflow.store.StoreSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded store of {@code ./jimflow dev}: a real PostgreSQL server (binaries from a Maven
 * artifact, unpacked once into the temp directory) with its data in {@code data/postgres} and its
 * log in {@code data/postgres.log}, listening on 127.0.0.1:{@value StoreSettings#EMBEDDED_PORT}.
 * Workers connect to it by URL like to any PostgreSQL ({@link StoreSettings#embedded()}).
 *
 * <p>The server runs as a daemon of its own ({@code pg_ctl start}), so it outlives the worker that
 * started it: a SIGKILLed worker leaves it running, and the next {@code ./jimflow dev} reuses it
 * and, as the one that started it is gone, takes it over (stops it on exit). A second {@code
 * ./jimflow dev} while the first runs only reuses it. A server that is gone without a clean
 * shutdown (killed, or the machine stopped) leaves its lock file behind; the next start finds it
 * stale, waits for its last processes to end and starts the server again, and PostgreSQL recovers
 * from its write-ahead log. It runs with PostgreSQL's durable defaults (fsync on, every commit
 * flushed to the log).
 */
public final class EmbeddedStoreServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(EmbeddedStoreServer.class);

  /** The superuser {@code initdb} creates, which the server trusts from this machine. */
  private static final String SUPERUSER = "postgres";

  /** How to run the server. */
  public record Options(Path dataDirectory, int port, Path logFile, Duration startupTimeout) {

    /** {@code ./jimflow dev}'s: {@code data/postgres} on 127.0.0.1:15432. */
    public static Options embeddedDefault(Path projectHome) {
      return new Options(
          projectHome.resolve("data/postgres"),
          StoreSettings.EMBEDDED_PORT,
          projectHome.resolve("data/postgres.log"),
          Duration.ofSeconds(120));
    }

    /** The file naming the process that stops the server when it ends ({@code postgres.owner}). */
    Path ownerFile() {
      return dataDirectory.resolveSibling(dataDirectory.getFileName() + ".owner");
    }
  }

  private final Options options;
  private final EmbeddedPostgres started;
  private final boolean owned;
  private final String note;
  private boolean closed;

  private EmbeddedStoreServer(
      Options options, EmbeddedPostgres started, boolean owned, String note) {
    this.options = options;
    this.started = started;
    this.owned = owned;
    this.note = note;
  }

  /**
   * Makes sure the server of these options runs: reuses a running one, else starts it (creating the
   * cluster the first time, recovering a stale one), and waits until its database answers.
   *
   * @throws DevServerException saying what is wrong, e.g. the port taken by another program
   */
  public static EmbeddedStoreServer start(Options options) {
    Path data = options.dataDirectory().toAbsolutePath().normalize();
    try {
      Files.createDirectories(data.getParent());
    } catch (IOException e) {
      throw new DevServerException("Cannot create " + data.getParent() + ": " + e.getMessage(), e);
    }
    Optional<ProcessHandle> running = PostmasterPid.runningServer(data);
    if (running.isPresent()) {
      awaitAnswer(options, running.get());
      ensureDatabase(options);
      boolean adopted = takeOverIfOrphaned(options);
      return new EmbeddedStoreServer(
          options,
          null,
          adopted,
          adopted
              ? "already running, taken over from a worker that is gone"
              : "already running, reused");
    }
    String recovered = StaleServerRecovery.recoverStale(data);
    if (DevServer.isListening("127.0.0.1", options.port())) {
      throw new DevServerException(
          "Port "
              + options.port()
              + " is taken by another program; the embedded PostgreSQL needs it. Stop that"
              + " program, or point JIMFLOW_STORE_URL at a PostgreSQL of your own.");
    }
    boolean created = !Files.exists(data.resolve("postgresql.conf"));
    EmbeddedPostgres postgres;
    try {
      postgres =
          EmbeddedPostgres.builder()
              .setDataDirectory(data)
              .setCleanDataDirectory(false)
              .setRegisterShutdownHook(false)
              .setPort(options.port())
              .setPGStartupWait(options.startupTimeout())
              // The builder's test defaults turn durability off; a user's store keeps it.
              .setServerConfig("fsync", "on")
              .setServerConfig("synchronous_commit", "on")
              .setServerConfig("full_page_writes", "on")
              .setServerConfig("listen_addresses", "127.0.0.1")
              .setServerConfig("max_connections", "100")
              .setOutputRedirector(ProcessBuilder.Redirect.appendTo(options.logFile().toFile()))
              .setErrorRedirector(ProcessBuilder.Redirect.appendTo(options.logFile().toFile()))
              .start();
    } catch (IOException | RuntimeException e) {
      throw new DevServerException(
          "The embedded PostgreSQL in "
              + data
              + " did not start: "
              + e.getMessage()
              + "; see "
              + options.logFile(),
          e);
    }
    ensureDatabase(options);
    writeOwner(options);
    return new EmbeddedStoreServer(
        options,
        postgres,
        true,
        (created ? "started here, cluster created" : "started here")
            + (recovered.isEmpty() ? "" : "; " + recovered));
  }

  /** The settings a worker on this server connects with. */
  public StoreSettings settings() {
    return StoreSettings.embedded(options.port());
  }

  /** What the banner says about it: started here, reused, taken over, recovered. */
  public String note() {
    return note;
  }

  public Options options() {
    return options;
  }

  /** Whether this process stops the server when it closes. */
  public boolean owns() {
    return owned;
  }

  /** The server's main process, while it runs. */
  public Optional<ProcessHandle> process() {
    return PostmasterPid.runningServer(options.dataDirectory().toAbsolutePath());
  }

  /**
   * Stops the server if this process owns it (PostgreSQL's fast shutdown: open transactions roll
   * back, everything committed stays), and waits until it has ended. Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (!owned) {
      return;
    }
    Optional<ProcessHandle> server = process();
    if (server.isPresent()) {
      log.info("Stopping the embedded PostgreSQL; {} keeps its data", options.dataDirectory());
      signal(server.get(), "INT");
      try {
        server.get().onExit().get(30, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException e) {
        log.warn("The embedded PostgreSQL did not stop within 30 s");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    releaseLock();
    try {
      Files.deleteIfExists(options.ownerFile());
    } catch (IOException e) {
      // Only a note for the next start, which checks whether its process still lives.
    }
  }

  /**
   * Forgets a server that was killed from outside (a test's SIGKILL), so that {@link #start} can
   * start it again in this JVM.
   */
  public synchronized void forgetKilled() {
    closed = true;
    releaseLock();
  }

  private void releaseLock() {
    if (started != null) {
      // Releases the data directory's lock; the server is stopped already, so its own stop
      // attempt finds nothing to stop.
      try {
        started.close();
      } catch (IOException | RuntimeException e) {
        log.debug("closing the embedded PostgreSQL's handle", e);
      }
    }
  }

  /** Waits until a running server (maybe still recovering) answers on its port. */
  private static void awaitAnswer(Options options, ProcessHandle server) {
    long deadline = System.nanoTime() + options.startupTimeout().toNanos();
    SQLException last = null;
    while (System.nanoTime() < deadline && server.isAlive()) {
      try (Connection ignored = connect(options, "postgres")) {
        return;
      } catch (SQLException e) {
        last = e;
      }
      sleep(Duration.ofMillis(200));
    }
    throw new DevServerException(
        "The embedded PostgreSQL in "
            + options.dataDirectory()
            + " (process "
            + server.pid()
            + ") does not answer on port "
            + options.port()
            + (last == null ? "" : ": " + last.getMessage())
            + "; see "
            + options.logFile());
  }

  /**
   * Takes the server over when the process that started it is gone (it was killed), so that this
   * one stops it on exit; leaves it to its owner while that runs.
   */
  private static boolean takeOverIfOrphaned(Options options) {
    try {
      Path owner = options.ownerFile();
      if (Files.exists(owner)) {
        long pid = Long.parseLong(Files.readString(owner).strip());
        if (pid != ProcessHandle.current().pid()
            && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
          return false;
        }
      }
      writeOwner(options);
      return true;
    } catch (IOException | NumberFormatException e) {
      writeOwner(options);
      return true;
    }
  }

  private static void writeOwner(Options options) {
    try {
      Files.writeString(options.ownerFile(), ProcessHandle.current().pid() + "\n");
    } catch (IOException e) {
      throw new DevServerException("Cannot write " + options.ownerFile(), e);
    }
  }

  /** Creates the store's account and database the first time. */
  private static void ensureDatabase(Options options) {
    try (Connection admin = connect(options, "postgres");
        Statement statement = admin.createStatement()) {
      if (!exists(admin, "select 1 from pg_roles where rolname = ?", StoreSettings.EMBEDDED_USER)) {
        statement.execute("create role " + StoreSettings.EMBEDDED_USER + " login");
      }
      if (!exists(
          admin, "select 1 from pg_database where datname = ?", StoreSettings.EMBEDDED_DATABASE)) {
        statement.execute(
            "create database "
                + StoreSettings.EMBEDDED_DATABASE
                + " owner "
                + StoreSettings.EMBEDDED_USER);
      }
    } catch (SQLException e) {
      throw new DevServerException(
          "The embedded PostgreSQL answers, but its database cannot be set up: " + e.getMessage(),
          e);
    }
  }

  private static boolean exists(Connection connection, String query, String name)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(query)) {
      statement.setString(1, name);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next();
      }
    }
  }

  private static Connection connect(Options options, String database) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + options.port() + "/" + database + "?connectTimeout=5",
        SUPERUSER,
        "");
  }

  private static void signal(ProcessHandle process, String signal) {
    try {
      new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start()
          .waitFor();
    } catch (IOException e) {
      process.destroy();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DevServerException("Interrupted while waiting for the embedded PostgreSQL", e);
    }
  }
}
