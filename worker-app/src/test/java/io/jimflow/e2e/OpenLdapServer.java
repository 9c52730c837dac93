package io.jimflow.e2e;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldif.LDIFException;
import io.jimflow.testing.Requirement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real OpenLDAP {@code slapd} (Debian's package) for one test class: started on a reserved port
 * with a throw-away {@code slapd.conf} and mdb databases in a fresh directory, stopped by {@link
 * #close()}. Suffix {@code dc=example,dc=org}; the accesslog overlay writes successful writes to
 * its own database {@code cn=accesslog}.
 *
 * <p>The connector binds as {@link #BIND_DN}, an ordinary entry (not the root DN, whose searches no
 * limit applies to): a search of more than {@link #SIZE_LIMIT} entries without the paged results
 * control fails for it with sizeLimitExceeded. Tests set up and inspect data as {@link #ADMIN_DN}.
 */
public final class OpenLdapServer implements AutoCloseable {

  public static final String SUFFIX = "dc=example,dc=org";
  static final String ADMIN_DN = "cn=admin," + SUFFIX;
  static final String ADMIN_PASSWORD = "admin-" + ProcessHandle.current().pid();
  public static final String BIND_DN = "cn=jimflow," + SUFFIX;
  public static final String BIND_PASSWORD = "jimflow-" + ProcessHandle.current().pid();
  static final int SIZE_LIMIT = 1000;

  private static final Path SLAPD =
      Path.of(System.getenv().getOrDefault("JIMFLOW_SLAPD", "/usr/sbin/slapd"));
  private static final Path MODULES = Path.of("/usr/lib/ldap");
  private static final Path SCHEMA = Path.of("/etc/ldap/schema");

  private final Process process;
  private final int port;
  private final Path log;

  private OpenLdapServer(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** Runs a test class only where slapd is installed, and always on CI. */
  static final class Required implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return Requirement.evaluate(
          "OpenLDAP tests",
          problem(),
          "apt-get install -y slapd ldap-utils (or set JIMFLOW_SLAPD)");
    }
  }

  public static Optional<String> problem() {
    if (!Files.isExecutable(SLAPD)) {
      return Optional.of("no slapd at " + SLAPD);
    }
    for (Path needed :
        List.of(
            MODULES.resolve("back_mdb.so"),
            MODULES.resolve("accesslog.so"),
            SCHEMA.resolve("inetorgperson.schema"))) {
      if (!Files.exists(needed)) {
        return Optional.of("slapd is there but " + needed + " is not");
      }
    }
    return Optional.empty();
  }

  /** Starts slapd with its configuration and databases below {@code dir} and creates the tree. */
  public static OpenLdapServer start(Path dir) {
    problem()
        .ifPresent(
            problem -> {
              throw new AssertionError("The OpenLDAP tests need slapd: " + problem);
            });
    int port = ReservedPorts.reserve();
    Path log = dir.resolve("slapd.log");
    Process process;
    try {
      Files.createDirectories(dir.resolve("main"));
      Files.createDirectories(dir.resolve("accesslog"));
      Path conf = dir.resolve("slapd.conf");
      Files.writeString(conf, configuration(dir));
      process =
          new ProcessBuilder(
                  SLAPD.toString(),
                  "-f",
                  conf.toString(),
                  "-h",
                  "ldap://127.0.0.1:" + port + "/",
                  // Debug level 0 keeps slapd in the foreground, so the test owns the process.
                  "-d",
                  "0")
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      process.getOutputStream().close();
    } catch (IOException e) {
      throw new IllegalStateException("slapd cannot be started in " + dir + ": " + e, e);
    }
    OpenLdapServer server = new OpenLdapServer(process, port, log);
    try {
      server.awaitListening(Duration.ofSeconds(60));
      server.createTree();
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  private static String configuration(Path dir) {
    return """
        include %1$s/core.schema
        include %1$s/cosine.schema
        include %1$s/inetorgperson.schema
        modulepath %2$s
        moduleload back_mdb
        moduleload accesslog
        pidfile %3$s/slapd.pid

        database mdb
        suffix "cn=accesslog"
        rootdn "%4$s"
        directory %3$s/accesslog
        maxsize 1073741824
        # Throw-away data: no fsync per write, which would make the tests wait on the disk.
        dbnosync
        index reqStart eq
        access to * by dn.exact="%5$s" read by * none
        limits dn.exact="%5$s" size.soft=%6$d size.hard=%6$d size.prtotal=unlimited

        database mdb
        suffix "%7$s"
        rootdn "%4$s"
        rootpw %8$s
        directory %3$s/main
        maxsize 1073741824
        # Throw-away data: no fsync per write, which would make the tests wait on the disk.
        dbnosync
        index objectClass eq
        index entryUUID eq
        index cn,uid eq
        access to attrs=userPassword by dn.exact="%5$s" write by anonymous auth by * none
        access to * by dn.exact="%5$s" write by * none
        limits dn.exact="%5$s" size.soft=%6$d size.hard=%6$d size.prtotal=unlimited
        overlay accesslog
        logdb "cn=accesslog"
        logops writes
        logsuccess TRUE
        logold (objectClass=*)
        logpurge 07+00:00 01+00:00
        """
        .formatted(
            SCHEMA,
            MODULES,
            dir.toAbsolutePath(),
            ADMIN_DN,
            BIND_DN,
            SIZE_LIMIT,
            SUFFIX,
            ADMIN_PASSWORD);
  }

  private void awaitListening(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "slapd exited with " + process.exitValue() + "; its output:\n" + output());
      }
      try (LDAPConnection connection = new LDAPConnection("127.0.0.1", port)) {
        return;
      } catch (LDAPException notYet) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "slapd did not listen on port "
                  + port
                  + " in "
                  + timeout
                  + "; its output:\n"
                  + output());
        }
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  private void createTree() {
    try (LDAPConnection admin = admin()) {
      admin.add(
          "dn: " + SUFFIX,
          "objectClass: dcObject",
          "objectClass: organization",
          "dc: example",
          "o: Example");
      admin.add(
          "dn: " + BIND_DN,
          "objectClass: organizationalRole",
          "objectClass: simpleSecurityObject",
          "cn: jimflow",
          "userPassword: " + BIND_PASSWORD);
    } catch (LDAPException | LDIFException e) {
      throw new IllegalStateException("slapd's tree cannot be created: " + e.getMessage(), e);
    }
  }

  /** A connection bound as the root DN, for setting up and checking what the tests expect. */
  public LDAPConnection admin() throws LDAPException {
    return new LDAPConnection("127.0.0.1", port, ADMIN_DN, ADMIN_PASSWORD);
  }

  /** Adds an organizational unit below the suffix. */
  public void addUnit(String ou) throws LDAPException {
    try (LDAPConnection admin = admin()) {
      admin.add(
          new Entry(
              "ou=" + ou + "," + SUFFIX,
              new Attribute("objectClass", "organizationalUnit"),
              new Attribute("ou", ou)));
    }
  }

  public String url() {
    return "ldap://127.0.0.1:" + port;
  }

  String output() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no output: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
