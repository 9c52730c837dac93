package io.jimflow.testing;

import io.jimflow.common.PostmasterPid;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The tests' PostgreSQL: an external one when {@code JIMFLOW_TEST_POSTGRES_URL} is set (with {@code
 * JIMFLOW_TEST_POSTGRES_USER} and {@code _PASSWORD}, default jimflow/jimflow; {@code
 * scripts/start-test-postgres.sh} sets one up), otherwise one embedded PostgreSQL server per test
 * JVM, started on first use on a free port with its data below {@code target/embedded-postgres/}
 * and stopped when the JVM ends. So no test is ever skipped for want of a PostgreSQL.
 *
 * <p>Each test class takes a fresh schema ({@link #newSchema()}) of that server.
 */
public final class TestPostgres {

  /** The variable that points the tests at an external PostgreSQL instead of the embedded one. */
  public static final String URL_VARIABLE = "JIMFLOW_TEST_POSTGRES_URL";

  /** Where the embedded servers of test JVMs keep their data, below the working directory. */
  static final Path EMBEDDED_ROOT = Path.of("target", "embedded-postgres");

  private static final String EMBEDDED_DATABASE = "jimflow_test";

  private static Server server;

  private TestPostgres() {}

  /** A PostgreSQL server as the tests reach it: a database's URL and its account. */
  public record Server(String url, String user, String password) {

    public Connection connect() throws SQLException {
      return DriverManager.getConnection(url, user, password);
    }

    /** The database's name, from its URL. */
    public String database() {
      String path = url.substring(url.lastIndexOf('/') + 1);
      int query = path.indexOf('?');
      return query < 0 ? path : path.substring(0, query);
    }
  }

  /** The tests' server: the external one if configured, else this JVM's embedded one. */
  public static synchronized Server server() {
    if (server == null) {
      String url = System.getenv(URL_VARIABLE);
      server = url == null || url.isBlank() ? startEmbedded() : external();
    }
    return server;
  }

  /**
   * The external PostgreSQL of the environment ({@code JIMFLOW_TEST_POSTGRES_URL} etc., default
   * {@code jdbc:postgresql://localhost:5432/jimflow_test}, jimflow/jimflow), as {@code
   * scripts/start-test-postgres.sh} sets it up: for the production topology tests, whose Temporal
   * server needs its databases there.
   */
  public static Server external() {
    return new Server(
        env(URL_VARIABLE, "jdbc:postgresql://localhost:5432/jimflow_test"),
        env("JIMFLOW_TEST_POSTGRES_USER", "jimflow"),
        env("JIMFLOW_TEST_POSTGRES_PASSWORD", "jimflow"));
  }

  public static String url() {
    return server().url();
  }

  public static String user() {
    return server().user();
  }

  public static String password() {
    return server().password();
  }

  /** A new, empty schema of the tests' PostgreSQL; close it to drop the schema. */
  public static Schema newSchema() {
    Server on = server();
    String schema = "test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    try (Connection connection = on.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("create schema " + schema);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot create a schema in the test PostgreSQL at "
              + on.url()
              + " ("
              + e.getMessage()
              + ")"
              + (System.getenv(URL_VARIABLE) == null
                  ? ""
                  : "; unset " + URL_VARIABLE + " to use an embedded PostgreSQL"),
          e);
    }
    return new Schema(on.url(), on.user(), on.password(), schema);
  }

  /**
   * A new database of the tests' server, empty or a copy of {@code template} (a database nobody is
   * connected to), e.g. for a benchmark that starts each round from the same prepared store. It
   * needs the right to create databases (the embedded server's account has it).
   */
  public static Server newDatabase(String template) {
    Server on = server();
    String name = "test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    try (Connection connection = on.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "create database " + name + (template == null ? "" : " template " + template));
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot create a database in the test PostgreSQL at " + on.url() + ": " + e.getMessage(),
          e);
    }
    return new Server(
        on.url().substring(0, on.url().lastIndexOf('/') + 1) + name, on.user(), on.password());
  }

  /** A schema of the test PostgreSQL. */
  public record Schema(String url, String user, String password, String schema)
      implements AutoCloseable {

    /** The database URL with this schema as the current one. */
    public String schemaUrl() {
      return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    /** A connection whose current schema is this one. */
    public Connection connect() throws SQLException {
      return DriverManager.getConnection(schemaUrl(), user, password);
    }

    @Override
    public void close() throws SQLException {
      try (Connection connection = DriverManager.getConnection(url, user, password);
          Statement statement = connection.createStatement()) {
        statement.execute("drop schema " + schema + " cascade");
      }
    }
  }

  /**
   * Starts this JVM's embedded server. Durability is traded for speed here (no fsync, commits not
   * waited for): a test kills workers, which are clients, never this server; what a user's embedded
   * server does is tested with worker-app's own (EmbeddedStoreServer). With {@code
   * -Djimflow.test.postgres.durable=true} (for benchmark figures) it runs as a user's does: fsync
   * on, every commit flushed to the write-ahead log.
   */
  private static Server startEmbedded() {
    boolean durable = Boolean.getBoolean("jimflow.test.postgres.durable");
    try {
      Files.createDirectories(EMBEDDED_ROOT);
      removeOrphans();
      Path data = EMBEDDED_ROOT.resolve("pg-" + ProcessHandle.current().pid());
      EmbeddedPostgres postgres =
          EmbeddedPostgres.builder()
              .setDataDirectory(data)
              .setCleanDataDirectory(true)
              .setRegisterShutdownHook(true)
              .setPGStartupWait(Duration.ofSeconds(60))
              .setServerConfig("listen_addresses", "127.0.0.1")
              .setServerConfig("max_connections", "200")
              .setServerConfig("fsync", durable ? "on" : "off")
              .setServerConfig("synchronous_commit", durable ? "on" : "off")
              .setServerConfig("full_page_writes", durable ? "on" : "off")
              .setOutputRedirector(
                  ProcessBuilder.Redirect.appendTo(
                      EMBEDDED_ROOT
                          .resolve("pg-" + ProcessHandle.current().pid() + ".log")
                          .toFile()))
              .start();
      try (Connection connection = postgres.getPostgresDatabase().getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute("create database " + EMBEDDED_DATABASE);
      }
      return new Server(
          "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/" + EMBEDDED_DATABASE,
          "postgres",
          "");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the tests' embedded PostgreSQL", e);
    } catch (SQLException e) {
      throw new IllegalStateException("the tests' embedded PostgreSQL does not answer", e);
    }
  }

  /**
   * Stops and removes the servers of earlier test JVMs that were killed before they could stop
   * them: a data directory whose lock no live JVM holds.
   */
  private static void removeOrphans() throws IOException {
    List<Path> directories;
    try (Stream<Path> children = Files.list(EMBEDDED_ROOT)) {
      directories = children.filter(Files::isDirectory).toList();
    }
    for (Path directory : directories) {
      Path lock = directory.resolve("epg-lock");
      if (!Files.exists(lock)) {
        continue;
      }
      try (FileChannel channel = new FileOutputStream(lock.toFile(), true).getChannel();
          FileLock held = channel.tryLock()) {
        if (held == null) {
          continue;
        }
        PostmasterPid.runningServer(directory)
            .ifPresent(
                process -> {
                  process.destroyForcibly();
                  process.onExit().orTimeout(10, java.util.concurrent.TimeUnit.SECONDS).join();
                });
      } catch (java.nio.channels.OverlappingFileLockException inThisJvm) {
        continue;
      }
      deleteTree(directory);
    }
  }

  private static void deleteTree(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
