package io.jimflow.connector.ldap;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchResultEntry;
import io.jimflow.sync.ExportChange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A batch of exports applied pipelined: many at once, an object's two exports in one batch, and a
 * DN freed and taken again in one batch, each with the outcome sending them one at a time gives.
 */
class LdapExportsTest {

  static final String BASE = TestDirectory.BASE;
  static final String PEOPLE = TestDirectory.PEOPLE;

  InMemoryDirectoryServer server;
  LdapDirectory directory;
  LdapExports exports;

  @BeforeEach
  void setUp() throws Exception {
    server = TestDirectory.start("pw");
    LdapSettings settings =
        LdapSettings.of(
            Map.of(
                "url",
                TestDirectory.url(server),
                "bindDn",
                TestDirectory.BIND_DN,
                "baseDn",
                PEOPLE,
                "objectClasses",
                "inetOrgPerson, organizationalPerson, person, top",
                "dnTemplate",
                "cn={cn}," + PEOPLE),
            name -> null);
    directory = LdapDirectory.connect(settings, "pw");
    exports = new LdapExports(directory, "entryUUID", Set.of("mail"));
  }

  @AfterEach
  void tearDown() {
    directory.close();
    server.shutDown(true);
  }

  static Map<String, String> person(String cn, String mails, String title) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("cn", cn);
    values.put("sn", "Last");
    values.put("mail", mails);
    values.put("title", title);
    return values;
  }

  static LdapExports.Export create(String cn, String mails, String title) {
    return new LdapExports.Export(
        ExportChange.Create, "provisional-" + cn, person(cn, mails, title), false);
  }

  static LdapExports.Export update(String anchor, String cn, String mails, String title) {
    return new LdapExports.Export(ExportChange.Update, anchor, person(cn, mails, title), false);
  }

  SearchResultEntry entry(String cn) throws Exception {
    return server.getEntry("cn=" + cn + "," + PEOPLE, "*", "+");
  }

  @Test
  void aBatchOfCreatesIsAppliedWithTheAnchorsTheDirectoryAssigned() throws Exception {
    List<LdapExports.Export> batch = new ArrayList<>();
    for (int n = 0; n < 300; n++) {
      batch.add(create("Person " + n, "p" + n + "@example.org", "Clerk"));
    }

    List<LdapExports.Result> results = exports.applyAll(batch);

    assertThat(results).hasSize(300).allMatch(LdapExports.Result::succeeded);
    for (int n = 0; n < 300; n += 37) {
      SearchResultEntry created = entry("Person " + n);
      assertThat(results.get(n).anchor()).isEqualTo(created.getAttributeValue("entryUUID"));
      assertThat(results.get(n).dn()).isEqualToIgnoringCase("cn=Person " + n + "," + PEOPLE);
    }
    assertThat(server.countEntriesBelow(PEOPLE)).isEqualTo(301);
  }

  int entriesBelowPeople() {
    try {
      return server.countEntriesBelow(PEOPLE);
    } catch (LDAPException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void theCallersWorkRunsOnceWhileTheBatchIsInFlight() throws Exception {
    List<LdapExports.Export> batch = new ArrayList<>();
    for (int n = 0; n < 2 * LdapExports.WINDOW + 10; n++) {
      batch.add(create("Person " + n, "p" + n + "@example.org", "Clerk"));
    }
    List<Integer> entriesMeanwhile = new ArrayList<>();

    List<LdapExports.Result> results =
        exports.applyAll(batch, () -> entriesMeanwhile.add(entriesBelowPeople()));

    assertThat(results).hasSize(batch.size()).allMatch(LdapExports.Result::succeeded);
    // Once, when the first window was sent: the unit and at most a window of the adds were there.
    assertThat(entriesMeanwhile).hasSize(1);
    assertThat(entriesMeanwhile.get(0)).isBetween(1, 1 + LdapExports.WINDOW);
    assertThat(server.countEntriesBelow(PEOPLE)).isEqualTo(batch.size() + 1);

    // A batch with nothing to send (an update of an object never created) runs it once too.
    List<String> ran = new ArrayList<>();
    exports.applyAll(
        List.of(update("provisional-x", "X", "x@example.org", "Clerk")), () -> ran.add("once"));
    assertThat(ran).containsExactly("once");
  }

  @Test
  void anObjectsTwoExportsInOneBatchAreAppliedInTheirOrder() throws Exception {
    String anchor =
        exports.applyAll(List.of(create("Ada", "a@example.org", "Clerk"))).get(0).anchor();

    List<LdapExports.Result> results =
        exports.applyAll(
            List.of(
                update(anchor, "Ada", "a@example.org\nb@example.org", "Engineer"),
                update(anchor, "Ada", "b@example.org\nc@example.org", "Architect")));

    assertThat(results).allMatch(LdapExports.Result::succeeded);
    assertThat(entry("Ada").getAttributeValues("mail"))
        .containsExactlyInAnyOrder("b@example.org", "c@example.org");
    assertThat(entry("Ada").getAttributeValue("title")).isEqualTo("Architect");
  }

  @Test
  void aDnRenamedAwayAndTakenByANewEntryInOneBatchEndsWithBoth() throws Exception {
    String anchor =
        exports.applyAll(List.of(create("Ada", "a@example.org", "Clerk"))).get(0).anchor();

    List<LdapExports.Result> results =
        exports.applyAll(
            List.of(
                update(anchor, "Ada Renamed", "a@example.org", "Clerk"),
                create("Ada", "other@example.org", "Trainee")));

    assertThat(results).allMatch(LdapExports.Result::succeeded);
    assertThat(entry("Ada Renamed").getAttributeValue("entryUUID")).isEqualTo(anchor);
    assertThat(entry("Ada").getAttributeValue("title")).isEqualTo("Trainee");
    assertThat(results.get(1).anchor()).isNotEqualTo(anchor);
  }

  @Test
  void oneExportsLdapErrorIsItsOwnAndTheOthersOfTheBatchSucceed() throws Exception {
    Map<String, String> noSurname = person("Bad", "bad@example.org", "Clerk");
    noSurname.remove("sn");
    List<LdapExports.Result> results =
        exports.applyAll(
            List.of(
                create("One", "1@example.org", "Clerk"),
                new LdapExports.Export(ExportChange.Create, "provisional-bad", noSurname, false),
                create("Two", "2@example.org", "Clerk")));

    assertThat(results.get(0).succeeded()).isTrue();
    assertThat(results.get(1).errorMessage()).startsWith("LDAP object class violation (65)");
    assertThat(results.get(1).dn()).isEqualToIgnoringCase("cn=Bad," + PEOPLE);
    assertThat(results.get(2).succeeded()).isTrue();
  }
}
