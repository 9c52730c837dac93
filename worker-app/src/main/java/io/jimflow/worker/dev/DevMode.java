package io.jimflow.worker.dev;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code ./jimflow dev}: runs the worker against the embedded default, a Temporal dev server on
 * 127.0.0.1:7233 (UI on 8233, SQLite in {@code data/temporal.db}), an LDAP directory on
 * 127.0.0.1:10389 ({@link EmbeddedDirectory}, kept in {@code data/directory.ldif}) and, unless the
 * store is configured elsewhere, the store's PostgreSQL on 127.0.0.1:15432 ({@link
 * EmbeddedStoreServer}, data in {@code data/postgres}). Starts each unless one already runs there,
 * in which case it is reused and left running on exit.
 */
public final class DevMode implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DevMode.class);

  /** The command-line flag that turns dev mode on. */
  public static final String FLAG = "--dev";

  private final DevServer ownServer;
  private final String target;
  private final String uiUrl;
  private EmbeddedDirectory directory;
  private String directoryNote;
  private EmbeddedStoreServer store;

  private DevMode(DevServer ownServer, String target, String uiUrl) {
    this.ownServer = ownServer;
    this.target = target;
    this.uiUrl = uiUrl;
  }

  public static boolean requested(String[] args) {
    return Arrays.asList(args).contains(FLAG)
        || "true".equalsIgnoreCase(System.getenv("JIMFLOW_DEV"));
  }

  /**
   * Makes sure a dev server runs on the embedded default's port before the worker connects; a
   * server started here has its UI decode payloads through this worker's codec server.
   *
   * @param workerHttpPort the worker's HTTP port, or 0 when it is not known in advance
   * @param embeddedStore whether to run the embedded PostgreSQL (the store is not set elsewhere)
   */
  public static DevMode prepare(int workerHttpPort, boolean embeddedStore) {
    Optional<Path> home = TemporalCli.projectHome();
    Path projectHome = home.orElse(Path.of("").toAbsolutePath());
    DevMode dev;
    if (DevServer.isListening("127.0.0.1", 7233)) {
      dev = new DevMode(null, "127.0.0.1:7233", "http://localhost:8233");
    } else {
      Path cli = TemporalCli.locate(home);
      DevServer.Options options = DevServer.Options.embeddedDefault(cli, projectHome);
      if (workerHttpPort > 0) {
        options = options.withUiCodecEndpoint(codecEndpoint(workerHttpPort));
      }
      DevServer server = DevServer.start(options);
      dev = new DevMode(server, server.target(), server.uiUrl());
    }
    // Abnormal exits too must not leave a server behind that holds the ports.
    Runtime.getRuntime().addShutdownHook(new Thread(dev::close, "jimflow-dev-server-stop"));
    try {
      if (embeddedStore) {
        dev.store =
            EmbeddedStoreServer.start(EmbeddedStoreServer.Options.embeddedDefault(projectHome));
      }
      dev.startDirectory(projectHome.resolve("data").resolve("directory.ldif"));
    } catch (RuntimeException e) {
      dev.close();
      throw e;
    }
    return dev;
  }

  private void startDirectory(Path ldif) {
    if (DevServer.isListening("127.0.0.1", EmbeddedDirectory.DEFAULT_PORT)) {
      directoryNote =
          "ldap://127.0.0.1:" + EmbeddedDirectory.DEFAULT_PORT + " (already running, reused)";
      return;
    }
    directory =
        EmbeddedDirectory.start(
            EmbeddedDirectory.DEFAULT_PORT, ldif, EmbeddedDirectory.password(System.getenv()));
    directoryNote =
        directory.url()
            + " base "
            + EmbeddedDirectory.BASE_DN
            + " (started here; data in data/"
            + ldif.getFileName()
            + ")\n                   bind "
            + EmbeddedDirectory.BIND_DN
            + ", password from "
            + EmbeddedDirectory.PASSWORD_VARIABLE
            + (System.getenv(EmbeddedDirectory.PASSWORD_VARIABLE) == null
                ? " (unset: development default '" + EmbeddedDirectory.DEVELOPMENT_PASSWORD + "')"
                : "");
  }

  /** What the banner says about the embedded directory. */
  public String directoryNote() {
    return directoryNote;
  }

  /** What the banner says about the store: the embedded PostgreSQL, or empty when set elsewhere. */
  public Optional<String> storeNote() {
    if (store == null) {
      return Optional.empty();
    }
    return Optional.of(
        store.settings().url()
            + " ("
            + store.note()
            + (store.owns() ? "; data in data/postgres, stopped with this worker" : "")
            + ")");
  }

  /** The codec server of a worker on this machine, as the browser showing the UI reaches it. */
  public static String codecEndpoint(int workerHttpPort) {
    return "http://localhost:" + workerHttpPort + "/codec";
  }

  public String target() {
    return target;
  }

  public String uiUrl() {
    return uiUrl;
  }

  /** Whether this process started the dev server (and so stops it on exit). */
  public boolean ownsServer() {
    return ownServer != null;
  }

  /**
   * Stops the dev server, the directory and the store's PostgreSQL if this process runs them; call
   * after the worker has shut down, so its last calls still reach them. Idempotent.
   */
  @Override
  public synchronized void close() {
    if (directory != null) {
      directory.close();
    }
    if (store != null) {
      store.close();
    }
    if (ownServer != null && ownServer.isRunning()) {
      log.info(
          "Stopping the Temporal dev server; {} keeps its data",
          ownServer.options().databaseFile());
      ownServer.close();
    }
  }
}
