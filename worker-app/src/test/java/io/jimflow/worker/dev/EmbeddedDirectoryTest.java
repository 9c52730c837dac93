package io.jimflow.worker.dev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The embedded default's directory: its bind account, entries kept across a restart, its indexed
 * look-ups, and how often it rewrites its file.
 */
class EmbeddedDirectoryTest {

  @TempDir Path dir;

  @Test
  void entriesAndTheirEntryUuidsSurviveARestart() throws Exception {
    Path ldif = dir.resolve("directory.ldif");
    String uuid;
    try (EmbeddedDirectory directory = EmbeddedDirectory.start(0, ldif, "pw");
        LDAPConnection connection = bind(directory)) {
      connection.add(
          new Entry(
              "uid=E1," + EmbeddedDirectory.PEOPLE_DN,
              new Attribute("objectClass", "inetOrgPerson"),
              new Attribute("uid", "E1"),
              new Attribute("cn", "Ada"),
              new Attribute("sn", "One")));
      uuid =
          connection
              .getEntry("uid=E1," + EmbeddedDirectory.PEOPLE_DN, "entryUUID")
              .getAttributeValue("entryUUID");
    }

    try (EmbeddedDirectory directory = EmbeddedDirectory.start(0, ldif, "pw");
        LDAPConnection connection = bind(directory)) {
      SearchResultEntry entry =
          connection.getEntry("uid=E1," + EmbeddedDirectory.PEOPLE_DN, "cn", "entryUUID");
      assertThat(entry.getAttributeValue("cn")).isEqualTo("Ada");
      assertThat(entry.getAttributeValue("entryUUID")).isEqualTo(uuid);
    }
  }

  @Test
  void theBindAccountNeedsItsPassword() {
    try (EmbeddedDirectory directory = EmbeddedDirectory.start(0, dir.resolve("d.ldif"), "pw")) {
      assertThatThrownBy(
              () ->
                  new LDAPConnection(
                      "127.0.0.1", directory.port(), EmbeddedDirectory.BIND_DN, "wrong"))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS));
    }
  }

  @Test
  void aBurstOfChangesIsWrittenOnceInTheBackgroundAndTheRestOnClose() throws Exception {
    Path ldif = dir.resolve("directory.ldif");
    EmbeddedDirectory directory = EmbeddedDirectory.start(0, ldif, "pw");
    try (LDAPConnection connection = bind(directory)) {
      for (int n = 1; n <= 300; n++) {
        connection.add(person(n, "Clerk"));
      }
      // The background rewrite after the burst: one file with all of it.
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (count(ldif, "dn: uid=") < 300) {
        assertThat(System.nanoTime() - deadline).as("the burst saved within 30 s").isNegative();
        Thread.sleep(50);
      }
      assertThat(directory.saves()).as("rewrites of the file for one burst").isLessThanOrEqualTo(2);
      connection.add(person(301, "Clerk"));
    } finally {
      directory.close();
    }
    assertThat(count(ldif, "dn: uid=")).as("entries saved on close").isEqualTo(301);
  }

  @Test
  void entriesAreFoundByIndexedAndUnindexedAttributesAlsoAfterARestart() throws Exception {
    Path ldif = dir.resolve("directory.ldif");
    String uuid;
    try (EmbeddedDirectory directory = EmbeddedDirectory.start(0, ldif, "pw");
        LDAPConnection connection = bind(directory)) {
      for (int n = 1; n <= 50; n++) {
        connection.add(person(n, n == 7 ? "Champion" : "Clerk"));
      }
      uuid = connection.getEntry(dn(7), "entryUUID").getAttributeValue("entryUUID");
    }
    try (EmbeddedDirectory directory = EmbeddedDirectory.start(0, ldif, "pw");
        LDAPConnection connection = bind(directory)) {
      for (Filter filter :
          List.of(
              Filter.createEqualityFilter("entryUUID", uuid),
              Filter.createEqualityFilter("uid", "E7"),
              Filter.createEqualityFilter("title", "champion"),
              Filter.createANDFilter(
                  Filter.createEqualityFilter("objectClass", "inetOrgPerson"),
                  Filter.createEqualityFilter("mail", "e7@example.org")))) {
        assertThat(
                connection
                    .search(EmbeddedDirectory.PEOPLE_DN, SearchScope.ONE, filter, "uid")
                    .getSearchEntries())
            .as(filter.toString())
            .extracting(e -> e.getAttributeValue("uid"))
            .containsExactly("E7");
      }
      // A changed value is found under the new one only.
      connection.modify(dn(7), new Modification(ModificationType.REPLACE, "title", "Clerk"));
      assertThat(
              connection
                  .search(EmbeddedDirectory.PEOPLE_DN, SearchScope.ONE, "(title=Champion)", "uid")
                  .getEntryCount())
          .isZero();
      assertThat(
              connection
                  .search(EmbeddedDirectory.PEOPLE_DN, SearchScope.ONE, "(title=Clerk)", "uid")
                  .getEntryCount())
          .isEqualTo(50);
    }
  }

  @ParameterizedTest
  @CsvSource({
    // last rewrite took (ms), pause before the next (ms)
    "0, 2000",
    "100, 2000",
    "222, 2000",
    "223, 2007",
    "1000, 9000",
    "3000, 27000",
  })
  void theNextRewriteWaitsNineTimesAsLongAsTheLastTookAndAtLeastTwoSeconds(
      long tookMillis, long pauseMillis) {
    assertThat(EmbeddedDirectory.pauseAfterSave(Duration.ofMillis(tookMillis)))
        .isEqualTo(Duration.ofMillis(pauseMillis));
  }

  private static LDAPConnection bind(EmbeddedDirectory directory) throws LDAPException {
    return new LDAPConnection("127.0.0.1", directory.port(), EmbeddedDirectory.BIND_DN, "pw");
  }

  private static String dn(int n) {
    return "uid=E" + n + "," + EmbeddedDirectory.PEOPLE_DN;
  }

  private static Entry person(int n, String title) {
    return new Entry(
        dn(n),
        new Attribute("objectClass", "inetOrgPerson"),
        new Attribute("uid", "E" + n),
        new Attribute("cn", "Person " + n),
        new Attribute("sn", "P" + n),
        new Attribute("mail", "e" + n + "@example.org"),
        new Attribute("title", title));
  }

  private static long count(Path ldif, String prefix) throws Exception {
    if (!Files.isRegularFile(ldif)) {
      return 0;
    }
    try (var lines = Files.lines(ldif)) {
      return lines.filter(l -> l.startsWith(prefix)).count();
    }
  }
}
