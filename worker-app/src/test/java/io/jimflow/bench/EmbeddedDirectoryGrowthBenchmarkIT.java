package io.jimflow.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import io.jimflow.connector.ldap.LdapDirectory;
import io.jimflow.connector.ldap.LdapExports;
import io.jimflow.connector.ldap.LdapSettings;
import io.jimflow.sync.ExportChange;
import io.jimflow.worker.dev.EmbeddedDirectory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded directory as it grows: the time per entry of the LDAP connector's exports (creates,
 * then an update of each, found by its entryUUID) into an empty directory and into the same
 * directory after {@code preload} more people, for the embedded directory as {@code ./jimflow dev}
 * runs it (indexed) beside UnboundID's in-memory server without indexes (the directory before). A
 * benchmark, not a test: it runs only with {@code -Djimflow.benchmark=true}.
 *
 * <p>Run: {@code ./mvnw -B -ntp verify -pl worker-app -am -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=EmbeddedDirectoryGrowthBenchmarkIT
 * -Djimflow.benchmark=true}; {@code -Djimflow.benchmark.preload=50000} and {@code
 * -Djimflow.benchmark.entries=2000} are the defaults.
 */
@EnabledIfSystemProperty(named = "jimflow.benchmark", matches = "true")
class EmbeddedDirectoryGrowthBenchmarkIT {

  private static final int PRELOAD = Integer.getInteger("jimflow.benchmark.preload", 50_000);
  private static final int ENTRIES = Integer.getInteger("jimflow.benchmark.entries", 2_000);
  private static final String PEOPLE = EmbeddedDirectory.PEOPLE_DN;
  private static final List<String> VARIANTS =
      Boolean.getBoolean("jimflow.benchmark.embeddedOnly")
          ? List.of("embedded (indexed, paced saves)")
          : List.of("embedded (indexed, paced saves)", "in-memory, no index");

  @TempDir Path work;

  @Test
  void exportsPerEntryIntoAnEmptyAndALargeDirectory() throws Exception {
    List<String> lines = new ArrayList<>();
    lines.add(
        "| directory | exports per entry, empty (µs) | after "
            + PRELOAD
            + " people (µs) | ratio large / empty |");
    lines.add("|---|---|---|---|");
    for (String variant : VARIANTS) {
      double[] perEntry = new double[2];
      try (Server server = start(variant);
          LDAPConnection loader =
              new LDAPConnection("127.0.0.1", server.port(), EmbeddedDirectory.BIND_DN, "pw")) {
        perEntry[0] = exports(server.port(), 0);
        for (int n = 0; n < PRELOAD; n++) {
          loader.add(person("P" + n, "Clerk"));
        }
        perEntry[1] = exports(server.port(), 1);
      }
      lines.add(
          String.format(
              Locale.ROOT,
              "| %s | %.0f | %.0f | %.2f |",
              variant,
              perEntry[0],
              perEntry[1],
              perEntry[1] / perEntry[0]));
    }
    String report = String.join("\n", lines) + "\n";
    System.out.println(report);
    Path out = Path.of("target", "benchmarks", "embedded-directory-growth.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, report);
  }

  /** Microseconds per export: {@link #ENTRIES} creates, then an update of each. */
  private double exports(int port, int round) {
    LdapSettings settings =
        LdapSettings.of(
            Map.of(
                "url",
                "ldap://127.0.0.1:" + port,
                "bindDn",
                EmbeddedDirectory.BIND_DN,
                "baseDn",
                PEOPLE,
                "scope",
                "one",
                "objectClasses",
                "inetOrgPerson, organizationalPerson, person, top",
                "dnTemplate",
                "uid={uid}," + PEOPLE),
            name -> null);
    long start = System.nanoTime();
    try (LdapDirectory directory = LdapDirectory.connect(settings, "pw")) {
      LdapExports exports = new LdapExports(directory, "entryUUID", Set.of());
      List<String> anchors = new ArrayList<>();
      for (int n = 0; n < ENTRIES; n++) {
        LdapExports.Result created =
            exports.apply(ExportChange.Create, null, values("R" + round + "-" + n, "Clerk"));
        assertThat(created.succeeded()).as(created.errorMessage()).isTrue();
        anchors.add(created.anchor());
      }
      for (int n = 0; n < ENTRIES; n++) {
        LdapExports.Result updated =
            exports.apply(
                ExportChange.Update, anchors.get(n), values("R" + round + "-" + n, "Champion"));
        assertThat(updated.succeeded()).as(updated.errorMessage()).isTrue();
      }
    }
    return (System.nanoTime() - start) / 1e3 / (2.0 * ENTRIES);
  }

  private static Map<String, String> values(String uid, String title) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("uid", uid);
    values.put("cn", "Person " + uid);
    values.put("sn", uid);
    values.put("mail", uid.toLowerCase(Locale.ROOT) + "@example.org");
    values.put("title", title);
    return values;
  }

  private static Entry person(String uid, String title) {
    Entry entry = new Entry("uid=" + uid + "," + PEOPLE);
    entry.addAttribute("objectClass", "inetOrgPerson", "organizationalPerson", "person", "top");
    values(uid, title).forEach(entry::addAttribute);
    return entry;
  }

  private Server start(String variant) throws Exception {
    if (variant.startsWith("embedded")) {
      EmbeddedDirectory directory =
          EmbeddedDirectory.start(0, work.resolve("directory.ldif"), "pw");
      return new Server(directory.port(), directory);
    }
    InMemoryDirectoryServerConfig config =
        new InMemoryDirectoryServerConfig(EmbeddedDirectory.BASE_DN);
    config.addAdditionalBindCredentials(EmbeddedDirectory.BIND_DN, "pw");
    config.setListenerConfigs(
        InMemoryListenerConfig.createLDAPConfig("ldap", InetAddress.getLoopbackAddress(), 0, null));
    InMemoryDirectoryServer server = new InMemoryDirectoryServer(config);
    server.add(
        new Entry(
            EmbeddedDirectory.BASE_DN,
            new Attribute("objectClass", "domain"),
            new Attribute("dc", "example")));
    server.add(
        new Entry(
            PEOPLE,
            new Attribute("objectClass", "organizationalUnit"),
            new Attribute("ou", "people")));
    server.startListening();
    return new Server(server.getListenPort(), () -> server.shutDown(true));
  }

  /** A running directory of one variant. */
  private record Server(int port, AutoCloseable stop) implements AutoCloseable {
    @Override
    public void close() throws Exception {
      stop.close();
    }
  }
}
