package io.jimflow.worker.dev;

import io.jimflow.secrets.SecretReference;
import io.jimflow.secrets.activities.WorkerSecrets;
import io.temporal.failure.ApplicationFailure;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -jar jimflow-worker.jar --directory-server}: the embedded directory on its own, as
 * the compose file's {@code directory} service runs it, until SIGTERM (its entries are saved then).
 *
 * <p>Settings from the environment: {@code JIMFLOW_DIRECTORY_LISTEN} (host:port, default
 * 127.0.0.1:10389), {@code JIMFLOW_DIRECTORY_LDIF} (default data/directory.ldif), and the bind
 * password as the worker reads {@code ${secret:directory-password}}: the file {@code
 * directory-password} in {@code JIMFLOW_SECRETS_DIR}, else {@code
 * JIMFLOW_SECRET_DIRECTORY_PASSWORD}.
 */
public final class DirectoryServer {

  /** The worker jar's flag that runs this instead of a worker. */
  public static final String FLAG = "--directory-server";

  static final SecretReference PASSWORD = new SecretReference("directory-password");

  private DirectoryServer() {}

  public static void main(String[] args) throws InterruptedException {
    EmbeddedDirectory directory;
    try {
      directory = start(System.getenv());
    } catch (DevServerException | IllegalArgumentException e) {
      System.err.println("jimflow directory: " + e.getMessage());
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  directory.close();
                  stopped.countDown();
                },
                "jimflow-directory-stop"));
    System.out.println(
        "jimflow directory: listening on port "
            + directory.port()
            + ", base "
            + EmbeddedDirectory.BASE_DN
            + ", bind "
            + EmbeddedDirectory.BIND_DN
            + ", entries kept in "
            + directory.ldif());
    stopped.await();
  }

  /** Starts the directory these environment settings describe. */
  static EmbeddedDirectory start(Map<String, String> environment) {
    String listen =
        environment.getOrDefault(
            "JIMFLOW_DIRECTORY_LISTEN", "127.0.0.1:" + EmbeddedDirectory.DEFAULT_PORT);
    int colon = listen.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException(
          "JIMFLOW_DIRECTORY_LISTEN must be host:port, e.g. 0.0.0.0:10389, not '" + listen + "'");
    }
    InetAddress address;
    int port;
    try {
      address = InetAddress.getByName(listen.substring(0, colon));
      port = Integer.parseInt(listen.substring(colon + 1));
    } catch (UnknownHostException | NumberFormatException e) {
      throw new IllegalArgumentException(
          "JIMFLOW_DIRECTORY_LISTEN must be host:port, e.g. 0.0.0.0:10389, not '" + listen + "'");
    }
    Path ldif = Path.of(environment.getOrDefault("JIMFLOW_DIRECTORY_LDIF", "data/directory.ldif"));
    String dir = environment.getOrDefault("JIMFLOW_SECRETS_DIR", "");
    WorkerSecrets secrets =
        new WorkerSecrets(
            dir.isBlank() ? Optional.empty() : Optional.of(Path.of(dir)), environment);
    String password;
    try {
      password = secrets.resolve(PASSWORD.toString());
    } catch (ApplicationFailure e) {
      throw new IllegalArgumentException(e.getOriginalMessage());
    }
    return EmbeddedDirectory.start(address, port, ldif, password);
  }
}
