package io.jimflow.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.interceptor.InMemoryInterceptedAddRequest;
import com.unboundid.ldap.listener.interceptor.InMemoryInterceptedAddResult;
import com.unboundid.ldap.listener.interceptor.InMemoryOperationInterceptor;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.jimflow.config.tree.ConfigException;
import io.jimflow.connector.ldap.LdapUnavailableException;
import io.jimflow.connector.ldap.TestDirectory;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.DataPlaneConfigLoader;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.secrets.activities.WorkerSecrets;
import io.jimflow.store.RunRecords.StoredRunItem;
import io.jimflow.store.Store;
import io.jimflow.store.TestStores;
import io.jimflow.testing.SettableClock;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LDAP connector against UnboundID's in-memory directory server: provisioning, updates,
 * renames, deletes and their confirmation; paged full imports; timestamp deltas; LDAP errors as run
 * items; bad credentials and an unreachable server.
 */
class LdapRunsTest {

  static final String PASSWORD = "in-memory-secret";
  static final String BASE = TestDirectory.BASE;
  static final String PEOPLE = TestDirectory.PEOPLE;
  static final String HEADER = "employeeId,firstName,lastName,displayName,mails,jobTitle\n";

  @TempDir Path dir;
  InMemoryDirectoryServer server;
  Store store;
  SettableClock clock = new SettableClock(Instant.parse("2026-03-01T02:00:00Z"));
  RunProfileExecutorImpl executor;
  final ProfileRuns runs =
      new ProfileRuns("ldap-test", new Initiator(InitiatorType.User, "test", "test"));

  static String config(String url) {
    return """
        connectedSystems:
          - id: hr
            connector: csv
            objectTypes:
              - {name: person, anchor: employeeId, attributes: [employeeId, firstName, lastName, displayName, mails, jobTitle]}
            runProfiles:
              - {id: full-import, name: Full Import, runType: FullImport, file: hr.csv}
              - {id: full-sync, name: Full Sync, runType: FullSynchronisation}
          - id: directory
            connector: ldap
            settings:
              url: %s
              bindDn: cn=jimflow,dc=example,dc=org
              password: ${secret:directory-password}
              baseDn: ou=people,dc=example,dc=org
              objectClasses: [inetOrgPerson, organizationalPerson, person, top]
              dnTemplate: cn={cn},ou=people,dc=example,dc=org
            objectTypes:
              - name: user
                anchor: entryUUID
                attributes: [uid, cn, givenName, sn, mail, title]
                multiValued: [mail]
            runProfiles:
              - {id: export, name: Export, runType: Export, pageSize: 2}
              - {id: full-import, name: Full Import, runType: FullImport, pageSize: 10}
              - {id: delta-import, name: Delta Import, runType: DeltaImport, pageSize: 10}
        syncRules:
          inbound:
            - id: hr-people
              system: hr
              objectType: person
              mvoType: person
              project: true
              join: [{cso: employeeId, mvo: employeeId}]
              flows:
                - {from: employeeId, to: employeeId}
                - {from: firstName, to: firstName}
                - {from: lastName, to: lastName}
                - {from: displayName, to: displayName}
                - {from: mails, to: mails}
                - {from: jobTitle, to: jobTitle}
          outbound:
            - id: directory-users
              system: directory
              objectType: user
              mvoType: person
              deprovisionOnDeletion: true
              scope:
                - {attribute: jobTitle, operator: NOT_EQUALS, value: Gone}
              flows:
                - {from: employeeId, to: uid}
                - {from: displayName, to: cn}
                - {from: firstName, to: givenName}
                - {from: lastName, to: sn}
                - {from: mails, to: mail}
                - {from: jobTitle, to: title}
        """
        .formatted(url);
  }

  /** Counts the adds the directory applies; can answer one of them as if it went away. */
  static final class Adds extends InMemoryOperationInterceptor {
    volatile int failNumber;
    int received;
    int succeeded;

    @Override
    public synchronized void processAddRequest(InMemoryInterceptedAddRequest request)
        throws LDAPException {
      received++;
      if (received == failNumber) {
        throw new LDAPException(ResultCode.UNAVAILABLE, "going away");
      }
    }

    @Override
    public synchronized void processAddResult(InMemoryInterceptedAddResult result) {
      if (result.getResult().getResultCode() == ResultCode.SUCCESS) {
        succeeded++;
      }
    }
  }

  final Adds adds = new Adds();

  @BeforeEach
  void setUp() throws Exception {
    server = TestDirectory.start(PASSWORD, config -> config.addInMemoryOperationInterceptor(adds));
    store = TestStores.postgres();
    executor = executor(TestDirectory.url(server), PASSWORD);
  }

  RunProfileExecutorImpl executor(String url, String password) {
    DataPlaneConfig config = new DataPlaneConfigLoader().parse("test.yaml", config(url));
    return new RunProfileExecutorImpl(
        store,
        config,
        dir,
        clock,
        new WorkerSecrets(Optional.empty(), Map.of("JIMFLOW_SECRET_DIRECTORY_PASSWORD", password)),
        name -> null);
  }

  @AfterEach
  void tearDown() {
    store.close();
    server.shutDown(true);
  }

  void hr(String... people) throws IOException {
    Files.writeString(dir.resolve("hr.csv"), HEADER + String.join("", people));
  }

  static String person(int n, String displayName, String mails, String title) {
    return "E%d,First%d,Last%d,%s,\"%s\",%s\n".formatted(n, n, n, displayName, mails, title);
  }

  RunProfileOutcome execute(String system, String profile) {
    return executor.execute(run(system, profile), new RecordingProgress());
  }

  RunProfileRun run(String system, String profile) {
    return runs.next(system, profile);
  }

  List<StoredRunItem> items(RunProfileOutcome outcome) {
    return ProfileRuns.items(store, clock, outcome);
  }

  long count(String sql) {
    return ProfileRuns.count(store, sql);
  }

  SearchResultEntry entry(String cn) throws Exception {
    return server.getEntry("cn=" + cn + "," + PEOPLE, "*", "+");
  }

  void syncHr() {
    execute("hr", "full-import");
    execute("hr", "full-sync");
  }

  @Test
  void peopleAreProvisionedUpdatedRenamedDeletedAndEachChangeIsConfirmed() throws Exception {
    hr(
        person(1, "Ada One", "ada@example.org\nada.one@example.org", "Engineer"),
        person(2, "Bob Two", "bob@example.org", "Engineer"),
        person(3, "Cy Three", "cy@example.org", "Engineer"));
    syncHr();

    RunProfileOutcome export = execute("directory", "export");
    assertThat(export.status()).isEqualTo(StepStatus.Complete);
    assertThat(export.stats()).containsEntry("exported", 3L);
    SearchResultEntry ada = entry("Ada One");
    assertThat(ada.getObjectClassValues()).contains("inetOrgPerson");
    assertThat(ada.getAttributeValues("mail"))
        .containsExactlyInAnyOrder("ada@example.org", "ada.one@example.org");
    // Provisioned objects take the anchor the directory assigned.
    assertThat(
            count(
                "select count(*) from cso where connected_system_id = 'directory' and anchor = '"
                    + ada.getAttributeValue("entryUUID")
                    + "'"))
        .isEqualTo(1);

    RunProfileOutcome confirming = execute("directory", "full-import");
    assertThat(confirming.stats()).containsEntry("confirmed", 3L).containsEntry("errors", 0L);

    hr(
        person(1, "Ada One", "ada@example.org", "Engineer"),
        person(2, "Bob Renamed", "bob@example.org", "Architect"),
        person(3, "Cy Three", "cy@example.org", "Gone"));
    syncHr();
    RunProfileOutcome changes = execute("directory", "export");
    assertThat(changes.stats()).containsEntry("exported", 3L).containsEntry("errors", 0L);
    assertThat(entry("Ada One").getAttributeValues("mail")).containsExactly("ada@example.org");
    assertThat(entry("Bob Two")).isNull();
    assertThat(entry("Bob Renamed").getAttributeValue("title")).isEqualTo("Architect");
    assertThat(entry("Cy Three")).isNull();

    RunProfileOutcome confirmed = execute("directory", "full-import");
    assertThat(confirmed.stats()).containsEntry("confirmed", 3L).containsEntry("errors", 0L);
    assertThat(count("select count(*) from pending_export where status <> 'Confirmed'")).isZero();
  }

  @Test
  void anLdapErrorIsThatExportsRunItemAndTheOtherExportsGoOn() throws Exception {
    hr(
        person(1, "Ada One", "ada@example.org", "Engineer"),
        "E2,First2,,No Surname,\"n@example.org\",Engineer\n",
        person(3, "Cy Three", "cy@example.org", "Engineer"));
    syncHr();

    RunProfileOutcome export = execute("directory", "export");

    assertThat(export.status()).isEqualTo(StepStatus.CompleteWithError);
    assertThat(export.stats()).containsEntry("exported", 2L).containsEntry("errors", 1L);
    assertThat(items(export))
        .filteredOn(i -> i.item().isError())
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.item().objectRef()).isEqualTo("cn=No Surname," + PEOPLE);
              assertThat(i.item().errorMessage()).startsWith("LDAP object class violation (65)");
            });
    assertThat(entry("Cy Three")).isNotNull();
  }

  @Test
  void anEntryJimflowDidNotProvisionIsLeftUntouchedAndItsPersonsExportIsAnErrorNamingTheDn()
      throws Exception {
    hr(
        person(1, "Ada One", "ada@example.org", "Engineer"),
        person(2, "Bob Two", "bob@example.org", "Engineer"));
    syncHr();
    // Someone created an entry by hand at the DN Ada maps to.
    String dn = "cn=Ada One," + PEOPLE;
    server.add(
        "dn: " + dn,
        "objectClass: inetOrgPerson",
        "cn: Ada One",
        "sn: Someone Else",
        "mail: someone@example.org",
        "title: Trainee");
    SearchResultEntry before = entry("Ada One");

    RunProfileOutcome export = execute("directory", "export");

    assertThat(export.status()).isEqualTo(StepStatus.CompleteWithError);
    assertThat(export.stats()).containsEntry("exported", 1L).containsEntry("errors", 1L);
    assertThat(items(export))
        .filteredOn(i -> i.item().isError())
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.item().objectRef()).isEqualTo(dn);
              assertThat(i.item().errorMessage())
                  .isEqualTo(dn + " exists and is not managed by jimflow");
            });
    SearchResultEntry after = entry("Ada One");
    assertThat(after.toLDIFString()).isEqualTo(before.toLDIFString());
    assertThat(after.getAttributeValue("entryUUID"))
        .isNotNull()
        .isEqualTo(before.getAttributeValue("entryUUID"));
    assertThat(entry("Bob Two")).isNotNull();
    // The entry's anchor is not taken: Ada's object keeps its provisional anchor, her export stays
    // pending and is the same error again on the next export.
    assertThat(
            count(
                "select count(*) from cso where anchor = '"
                    + before.getAttributeValue("entryUUID")
                    + "'"))
        .isZero();
    assertThat(count("select count(*) from pending_export where status = 'Pending'")).isEqualTo(1);
    RunProfileOutcome again = execute("directory", "export");
    assertThat(again.stats()).containsEntry("errors", 1L);
    assertThat(entry("Ada One").toLDIFString()).isEqualTo(before.toLDIFString());

    // Once the operator removes the entry, the next export provisions Ada.
    server.delete(dn);
    RunProfileOutcome fixed = execute("directory", "export");
    assertThat(fixed.stats()).containsEntry("exported", 1L).containsEntry("errors", 0L);
    assertThat(entry("Ada One").getAttributeValue("sn")).isEqualTo("Last1");
  }

  @Test
  void anAttemptLostWhileItsBatchWasInFlightIsRetriedWithNoAddTwiceAndNoneLost() throws Exception {
    hr(
        person(1, "Ada One", "ada@example.org", "Engineer"),
        person(2, "Bob Two", "bob@example.org", "Engineer"),
        person(3, "Cy Three", "cy@example.org", "Engineer"),
        person(4, "Di Four", "di@example.org", "Engineer"),
        person(5, "Ed Five", "ed@example.org", "Engineer"));
    syncHr();
    // The directory answers the fourth add as if it went away: the third, in flight in the same
    // batch (pageSize 2), reached it, and the attempt dies before recording the batch.
    adds.failNumber = 4;
    RunProfileRun first = run("directory", "export");
    assertThatThrownBy(() -> executor.execute(first, new RecordingProgress()))
        .isInstanceOf(LdapUnavailableException.class);
    assertThat(server.countEntriesBelow(PEOPLE)).isEqualTo(4);
    assertThat(count("select count(*) from pending_export where status = 'Exported'")).isEqualTo(2);

    RunProfileOutcome outcome = executor.execute(retry(first), new RecordingProgress());

    assertThat(outcome.status()).as(outcome.message()).isEqualTo(StepStatus.Complete);
    assertThat(outcome.stats()).containsEntry("exported", 5L).containsEntry("errors", 0L);
    assertThat(adds.succeeded).as("adds the directory applied").isEqualTo(5);
    assertThat(server.countEntriesBelow(PEOPLE)).isEqualTo(6);
    assertThat(count("select count(*) from pending_export where status = 'Exported'")).isEqualTo(5);
    // Each provisioned object holds the entryUUID of its entry, the one the lost attempt created
    // too.
    for (String cn : List.of("Ada One", "Bob Two", "Cy Three", "Di Four", "Ed Five")) {
      assertThat(
              count(
                  "select count(*) from cso where connected_system_id = 'directory' and anchor = '"
                      + entry(cn).getAttributeValue("entryUUID")
                      + "'"))
          .as(cn)
          .isEqualTo(1);
    }
    assertThat(execute("directory", "full-import").stats())
        .containsEntry("confirmed", 5L)
        .containsEntry("errors", 0L);
  }

  RunProfileRun retry(RunProfileRun first) {
    return new RunProfileRun(
        first.connectedSystem(),
        first.runProfile(),
        first.executionId(),
        first.scheduleId(),
        first.stepIndex(),
        first.stepName(),
        first.initiator(),
        2);
  }

  @Test
  void aFullImportReadsTheDirectoryInPagesAndResumesAfterTheLastCommittedPage() throws Exception {
    for (int i = 1; i <= 25; i++) {
      server.add(
          new Entry(
              "cn=Person " + i + "," + PEOPLE,
              List.of(
                  new com.unboundid.ldap.sdk.Attribute("objectClass", "inetOrgPerson"),
                  new com.unboundid.ldap.sdk.Attribute("cn", "Person " + i),
                  new com.unboundid.ldap.sdk.Attribute("sn", "Last" + i),
                  new com.unboundid.ldap.sdk.Attribute(
                      "mail", "p" + i + "@x.org", "q" + i + "@x.org"))));
    }
    RunProfileRun first = run("directory", "full-import");
    RecordingProgress dying = RecordingProgress.dyingAfterCheckpoints(2);
    assertThatThrownBy(() -> executor.execute(first, dying))
        .isInstanceOf(RecordingProgress.WorkerDied.class);
    assertThat(count("select count(*) from cso")).isEqualTo(20);

    RunProfileOutcome outcome = executor.execute(retry(first), new RecordingProgress());

    assertThat(outcome.stats()).containsEntry("added", 25L).containsEntry("errors", 0L);
    assertThat(count("select count(*) from cso")).isEqualTo(25);
    assertThat(count("select count(*) from cso where attributes like '%p7@x.org\\\\nq7@x.org%'"))
        .isEqualTo(1);
  }

  @Test
  void aTimestampDeltaImportSeesAddedAndModifiedEntries() throws Exception {
    server.add("dn: cn=Old," + PEOPLE, "objectClass: inetOrgPerson", "cn: Old", "sn: O");
    assertThat(execute("directory", "full-import").stats()).containsEntry("added", 1L);

    server.modify("cn=Old," + PEOPLE, new Modification(ModificationType.REPLACE, "title", "New"));
    server.add("dn: cn=Newcomer," + PEOPLE, "objectClass: inetOrgPerson", "cn: Newcomer", "sn: N");
    RunProfileOutcome delta = execute("directory", "delta-import");

    assertThat(delta.status()).isEqualTo(StepStatus.Complete);
    assertThat(delta.stats()).containsEntry("added", 1L).containsEntry("updated", 1L);
    assertThat(server.search(PEOPLE, SearchScope.ONE, "(cn=*)").getEntryCount()).isEqualTo(2);
  }

  @Test
  void aWrongPasswordFailsTheRunWithTheDirectorysAnswer() {
    executor = executor("ldap://127.0.0.1:" + server.getListenPort(), "wrong");

    RunProfileOutcome outcome = execute("directory", "full-import");

    assertThat(outcome.status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(outcome.message())
        .contains("bind to ldap://127.0.0.1:")
        .contains("as cn=jimflow,dc=example,dc=org failed: invalid credentials (49)")
        .doesNotContain("wrong");
  }

  @Test
  void anUnreachableDirectoryIsRetriedByTemporal() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    executor = executor("ldap://127.0.0.1:" + port, PASSWORD);

    assertThatThrownBy(() -> execute("directory", "full-import"))
        .isInstanceOf(LdapUnavailableException.class)
        .hasMessageContaining("directory ldap://127.0.0.1:" + port + " cannot be reached");
  }

  @Test
  void aPasswordWrittenIntoTheFileIsAProblemWithItsLine() {
    String yaml =
        config("ldap://127.0.0.1:389")
            .replace("${secret:directory-password}", "hunter2")
            .replace("cn={cn}", "cn={fullName}");

    assertThatThrownBy(() -> new DataPlaneConfigLoader().parse("systems.yaml", yaml))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "systems.yaml:14: connected system 'directory': password must be a secret reference")
        .hasMessageContaining(
            "systems.yaml:17: connected system 'directory': dnTemplate uses" + " {fullName}")
        .hasMessageNotContaining("hunter2");
  }

  static Map<String, String> none() {
    return Map.of();
  }
}
