package io.jimflow.worker.dev;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import com.unboundid.ldap.listener.interceptor.InMemoryInterceptedAddResult;
import com.unboundid.ldap.listener.interceptor.InMemoryInterceptedDeleteResult;
import com.unboundid.ldap.listener.interceptor.InMemoryInterceptedModifyDNResult;
import com.unboundid.ldap.listener.interceptor.InMemoryInterceptedModifyResult;
import com.unboundid.ldap.listener.interceptor.InMemoryOperationInterceptor;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default's directory: UnboundID's in-memory LDAP server with base DN {@code
 * dc=example,dc=org} and {@code ou=people} below it, a bind account for the Directory connected
 * system, and its entries kept in an LDIF file so they survive a restart (read at start, rewritten
 * in the background after changes at a bounded rate, and on close).
 *
 * <p>The server keeps equality indexes on {@link #INDEXED_ATTRIBUTES}: without them every search
 * (the export's look-up of an entry by its {@code entryUUID}) reads every entry, and an export
 * becomes quadratic in the directory's size.
 */
public final class EmbeddedDirectory implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(EmbeddedDirectory.class);

  public static final String BASE_DN = "dc=example,dc=org";
  public static final String PEOPLE_DN = "ou=people," + BASE_DN;
  public static final String BIND_DN = "cn=jimflow," + BASE_DN;
  public static final int DEFAULT_PORT = 10389;

  /**
   * Where the bind password comes from: the worker resolves the Directory's {@code
   * ${secret:directory-password}} from this variable too.
   */
  public static final String PASSWORD_VARIABLE = "JIMFLOW_SECRET_DIRECTORY_PASSWORD";

  /** The password when {@link #PASSWORD_VARIABLE} is unset: for development only. */
  public static final String DEVELOPMENT_PASSWORD = "jimflow-dev-password";

  /**
   * The attributes with an equality index: the anchor the LDAP connector looks entries up by, and a
   * person's two keys (the DN template's {@code uid} and HR's {@code employeeNumber}). Every index
   * is paid for on each add, modify and delete, in the directory's one writing thread: an index on
   * {@code cn}, {@code mail} and {@code title} as well cost the demo's export about a third of its
   * adds per second, while a search by them reads every entry in about 40 ms at 10,000 entries (and
   * {@code title}, shared by thousands of people, gains a search little). docs/connectors.md.
   */
  static final List<String> INDEXED_ATTRIBUTES = List.of("entryUUID", "uid", "employeeNumber");

  /** The shortest time between two rewrites of the file. */
  static final Duration MIN_SAVE_INTERVAL = Duration.ofSeconds(2);

  /**
   * Between two rewrites the directory waits this many times as long as the last rewrite took: a
   * large directory (a rewrite blocks its writes) spends at most a tenth of its time saving.
   */
  static final int SAVE_PAUSE_FACTOR = 9;

  private final InMemoryDirectoryServer server;
  private final Path ldif;
  private final AtomicBoolean dirty = new AtomicBoolean();
  private final ScheduledExecutorService saver;
  private final AtomicLong saves = new AtomicLong();
  private volatile long nextSaveNanos;

  private EmbeddedDirectory(InMemoryDirectoryServer server, Path ldif) {
    this.server = server;
    this.ldif = ldif;
    this.saver =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "jimflow-directory-save");
              t.setDaemon(true);
              return t;
            });
    nextSaveNanos = System.nanoTime() + MIN_SAVE_INTERVAL.toNanos();
    saver.scheduleWithFixedDelay(this::saveWhenDue, 500, 500, TimeUnit.MILLISECONDS);
  }

  /** The bind password: {@link #PASSWORD_VARIABLE}, or the development default. */
  public static String password(Map<String, String> environment) {
    String value = environment.get(PASSWORD_VARIABLE);
    return value == null || value.isEmpty() ? DEVELOPMENT_PASSWORD : value;
  }

  /**
   * {@code environment} with {@link #PASSWORD_VARIABLE} set to the development default when it is
   * unset: in dev mode the worker binds to the directory it started with the password it printed.
   */
  public static Map<String, String> withDevelopmentPassword(Map<String, String> environment) {
    String value = environment.get(PASSWORD_VARIABLE);
    if (value != null && !value.isEmpty()) {
      return environment;
    }
    Map<String, String> withDefault = new HashMap<>(environment);
    withDefault.put(PASSWORD_VARIABLE, DEVELOPMENT_PASSWORD);
    return withDefault;
  }

  /**
   * Starts the directory on 127.0.0.1.
   *
   * @param port 0 for any free port
   * @param ldif the file its entries are kept in; read when it exists
   */
  public static EmbeddedDirectory start(int port, Path ldif, String password) {
    return start(InetAddress.getLoopbackAddress(), port, ldif, password);
  }

  /**
   * Starts the directory on {@code address} (e.g. every interface of a container).
   *
   * @param port 0 for any free port
   * @param ldif the file its entries are kept in; read when it exists
   */
  public static EmbeddedDirectory start(InetAddress address, int port, Path ldif, String password) {
    try {
      InMemoryDirectoryServerConfig config = new InMemoryDirectoryServerConfig(BASE_DN);
      config.addAdditionalBindCredentials(BIND_DN, password);
      config.setListenerConfigs(
          InMemoryListenerConfig.createLDAPConfig("ldap", address, port, null));
      Holder holder = new Holder();
      config.addInMemoryOperationInterceptor(holder);
      config.setEqualityIndexAttributes(INDEXED_ATTRIBUTES);
      InMemoryDirectoryServer server = new InMemoryDirectoryServer(config);
      if (Files.isRegularFile(ldif)) {
        server.importFromLDIF(true, ldif.toFile());
      } else {
        server.add(
            new Entry(
                BASE_DN, new Attribute("objectClass", "domain"), new Attribute("dc", "example")));
        server.add(
            new Entry(
                PEOPLE_DN,
                new Attribute("objectClass", "organizationalUnit"),
                new Attribute("ou", "people")));
      }
      server.startListening();
      EmbeddedDirectory directory = new EmbeddedDirectory(server, ldif);
      holder.directory = directory;
      directory.dirty.set(!Files.isRegularFile(ldif));
      return directory;
    } catch (LDAPException e) {
      throw new DevServerException(
          "the embedded directory cannot start on "
              + address.getHostAddress()
              + ":"
              + port
              + ": "
              + e.getMessage(),
          e);
    }
  }

  public int port() {
    return server.getListenPort();
  }

  public String url() {
    return "ldap://127.0.0.1:" + port();
  }

  public Path ldif() {
    return ldif;
  }

  /** How many times the file was rewritten since the start (for tests). */
  long saves() {
    return saves.get();
  }

  private void saveWhenDue() {
    long now = System.nanoTime();
    if (now - nextSaveNanos < 0 || !dirty.get()) {
      return;
    }
    saveIfChanged();
    nextSaveNanos =
        System.nanoTime() + pauseAfterSave(Duration.ofNanos(System.nanoTime() - now)).toNanos();
  }

  /**
   * How long the directory waits after a rewrite of {@code took} before the next one: {@link
   * #SAVE_PAUSE_FACTOR} times as long, at least {@link #MIN_SAVE_INTERVAL}.
   */
  static Duration pauseAfterSave(Duration took) {
    Duration pause = took.multipliedBy(SAVE_PAUSE_FACTOR);
    return pause.compareTo(MIN_SAVE_INTERVAL) < 0 ? MIN_SAVE_INTERVAL : pause;
  }

  private void saveIfChanged() {
    if (dirty.getAndSet(false)) {
      try {
        save();
        saves.incrementAndGet();
      } catch (RuntimeException | IOException | LDAPException e) {
        dirty.set(true);
        log.warn("the embedded directory could not be saved to {}: {}", ldif, e.getMessage());
      }
    }
  }

  private synchronized void save() throws IOException, LDAPException {
    Files.createDirectories(ldif.toAbsolutePath().getParent());
    Path temporary = ldif.resolveSibling(ldif.getFileName() + ".tmp");
    server.exportToLDIF(temporary.toString(), false, true);
    try {
      Files.move(
          temporary, ldif, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, ldif, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Stops listening and saves what changed. Idempotent. */
  @Override
  public synchronized void close() {
    if (saver.isShutdown()) {
      return;
    }
    saver.shutdownNow();
    server.shutDown(true);
    saveIfChanged();
  }

  /** Marks the directory changed after every successful write. */
  private static final class Holder extends InMemoryOperationInterceptor {
    volatile EmbeddedDirectory directory;

    private void changed() {
      EmbeddedDirectory d = directory;
      if (d != null) {
        d.dirty.set(true);
      }
    }

    @Override
    public void processAddResult(InMemoryInterceptedAddResult result) {
      changed();
    }

    @Override
    public void processModifyResult(InMemoryInterceptedModifyResult result) {
      changed();
    }

    @Override
    public void processModifyDNResult(InMemoryInterceptedModifyDNResult result) {
      changed();
    }

    @Override
    public void processDeleteResult(InMemoryInterceptedDeleteResult result) {
      changed();
    }
  }
}
