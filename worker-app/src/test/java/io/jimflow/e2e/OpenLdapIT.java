package io.jimflow.e2e;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import io.jimflow.testing.ScheduleBuilders.StepBuilder;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The LDAP connector end to end against a real OpenLDAP {@code slapd} with the accesslog overlay,
 * driven through real worker processes: a paged full import, an accesslog delta import, an export
 * of adds, modifies, a rename and a delete, a worker SIGKILLed in the middle of an export (with its
 * store on PostgreSQL), and the step failures a wrong password and an unreachable server give.
 *
 * <p>Needs Debian's {@code slapd}; without it the class is skipped with one line, except under
 * {@code CI=true}, where it runs and fails.
 */
@ExtendWith({OpenLdapServer.Required.class, TemporalDevServerExtension.class})
class OpenLdapIT {

  private static final String SECRET_ENV = "JIMFLOW_SECRET_OPENLDAP_PASSWORD";
  private static final String HR_HEADER =
      "employeeId,firstName,lastName,displayName,title,status\n";

  private static Path home;
  private static OpenLdapServer slapd;
  private static WorkerProcess worker;
  private static String namespace;
  private static E2eEnvironment.TestStore store;

  @BeforeAll
  static void startDirectory(E2eEnvironment env) throws Exception {
    home = env.newDirectory("openldap");
    slapd = OpenLdapServer.start(home.resolve("slapd"));
    for (String ou : List.of("people", "staff", "crash")) {
      slapd.addUnit(ou);
    }
  }

  @AfterAll
  static void stopDirectory() {
    if (worker != null) {
      worker.kill();
    }
    if (slapd != null) {
      slapd.close();
    }
  }

  /**
   * The data plane every worker of this class runs: an HR CSV file, the directory's people (import
   * cases), its staff (export cases), and two systems the directory refuses or never answers for.
   */
  private static String systems(String exportUnit) {
    int unusedPort = ReservedPorts.reserve();
    return """
        connectedSystems:
          - id: hr
            name: HR System
            connector: csv
            objectTypes:
              - {name: person, anchor: employeeId, attributes: [employeeId, firstName, lastName, displayName, title, status]}
            runProfiles:
              - {id: full-import, name: Full Import, runType: FullImport, file: data/hr.csv, pageSize: 500}
              - {id: full-sync, name: Full Synchronisation, runType: FullSynchronisation, pageSize: 500}
        %1$s
        %2$s
        %3$s
        %4$s
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
                - {from: title, to: title}
                - {from: status, to: status}
          outbound:
            - id: staff
              system: staff
              objectType: user
              mvoType: person
              deprovisionOnDeletion: true
              scope:
                - {attribute: status, operator: NOT_EQUALS, value: Leaver}
              flows:
                - {from: employeeId, to: uid}
                - {from: displayName, to: cn}
                - {from: firstName, to: givenName}
                - {from: lastName, to: sn}
                - {from: title, to: title}
        """
        .formatted(
            ldapSystem("directory", "people", "${secret:openldap-password}", slapd.url()),
            ldapSystem("staff", exportUnit, "${secret:openldap-password}", slapd.url()),
            ldapSystem("wrong-password", "people", "${secret:wrong-password}", slapd.url()),
            ldapSystem(
                "unreachable",
                "people",
                "${secret:openldap-password}",
                "ldap://127.0.0.1:" + unusedPort));
  }

  private static String ldapSystem(String id, String unit, String password, String url) {
    return """
          - id: %1$s
            connector: ldap
            settings:
              url: %4$s
              bindDn: %5$s
              password: %3$s
              baseDn: ou=%2$s,dc=example,dc=org
              scope: one
              objectClasses: [inetOrgPerson, organizationalPerson, person, top]
              dnTemplate: cn={cn},ou=%2$s,dc=example,dc=org
              deltaSource: accesslog
              connectTimeout: 5s
            objectTypes:
              - name: user
                anchor: entryUUID
                attributes: [uid, cn, givenName, sn, title]
            runProfiles:
              - {id: export, name: Export, runType: Export, pageSize: 100}
              - {id: full-import, name: Full Import, runType: FullImport, pageSize: 500}
              - {id: delta-import, name: Delta Import, runType: DeltaImport, pageSize: 500}
        """
        .formatted(id, unit, password, url, OpenLdapServer.BIND_DN)
        .stripTrailing();
  }

  /** A worker with its own namespace, store and data plane for {@code systems}. */
  private static Map<String, String> workerEnv(
      E2eEnvironment env,
      Path dir,
      String systems,
      String namespace,
      E2eEnvironment.TestStore store)
      throws IOException {
    Path config = dir.resolve("connected-systems.yaml");
    Files.createDirectories(dir.resolve("data"));
    Files.writeString(config, systems);
    Map<String, String> workerEnv = new HashMap<>();
    workerEnv.put("TEMPORAL_NAMESPACE", namespace);
    workerEnv.putAll(store.environment());
    workerEnv.put("JIMFLOW_DATA_PLANE_CONFIG", config.toString());
    workerEnv.put("JIMFLOW_DATA_PLANE_BASE_DIRECTORY", dir.toString());
    workerEnv.put(SECRET_ENV, OpenLdapServer.BIND_PASSWORD);
    workerEnv.put("JIMFLOW_SECRET_WRONG_PASSWORD", "not-" + OpenLdapServer.BIND_PASSWORD);
    return workerEnv;
  }

  private static synchronized WorkflowClient client(E2eEnvironment env) throws IOException {
    if (worker == null) {
      namespace = env.newNamespace("openldap");
      Path dir = home.resolve("worker");
      store = E2eEnvironment.newStore();
      worker = env.startWorker("openldap", workerEnv(env, dir, systems("staff"), namespace, store));
    }
    return env.client(namespace);
  }

  private static StepBuilder step(int index, String system, String profile) {
    return aStep(index, system + " " + profile)
        .runProfile(system, profile)
        .timeout(Duration.ofMinutes(10))
        .heartbeatTimeout(Duration.ofSeconds(30))
        .attempts(1);
  }

  private static ExecutionResult run(WorkflowClient client, StepBuilder... steps) throws Exception {
    ScheduleDefinition definition =
        aSchedule("openldap").named("openldap").with(steps).definition();
    ScheduleExecutionWorkflow execution =
        ManualExecutions.start(
            client, "openldap/" + UUID.randomUUID(), definition, ManualExecutions.TESTER);
    return result(execution);
  }

  /** How an execution ended; a failed one carries its result in the failure. */
  private static ExecutionResult result(ScheduleExecutionWorkflow execution) throws Exception {
    try {
      return WorkflowStub.fromTyped(execution)
          .getResult(10, TimeUnit.MINUTES, ExecutionResult.class);
    } catch (WorkflowFailedException e) {
      if (e.getCause() instanceof ApplicationFailure failure) {
        return failure.getDetails().get(ExecutionResult.class);
      }
      throw e;
    }
  }

  private static StepOutcome only(ExecutionResult result) {
    assertThat(result.steps()).hasSize(1);
    return result.steps().get(0);
  }

  private static void writeHr(Path dir, List<String> rows) throws IOException {
    Files.writeString(dir.resolve("data/hr.csv"), HR_HEADER + String.join("", rows));
  }

  private static String hrRow(int n, String displayName, String title, String status) {
    return "E%05d,First%d,Last%d,%s,%s,%s\n".formatted(n, n, n, displayName, title, status);
  }

  private static Entry person(String unit, int n) {
    return new Entry(
        "cn=Person " + n + ",ou=" + unit + "," + OpenLdapServer.SUFFIX,
        List.of(
            new Attribute("objectClass", "inetOrgPerson", "organizationalPerson", "person", "top"),
            new Attribute("cn", "Person " + n),
            new Attribute("sn", "Last" + n),
            new Attribute("uid", "u" + n),
            new Attribute("title", "Clerk")));
  }

  private static long count(String sql) throws Exception {
    try (Connection store = OpenLdapIT.store.connect();
        Statement statement = store.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  private static List<SearchResultEntry> entries(String unit) throws LDAPException {
    try (LDAPConnection admin = slapd.admin()) {
      return admin
          .search(
              "ou=" + unit + "," + OpenLdapServer.SUFFIX,
              SearchScope.ONE,
              Filter.createEqualityFilter("objectClass", "inetOrgPerson"),
              "cn",
              "uid",
              "title")
          .getSearchEntries();
    }
  }

  /** Waits until {@code unit} holds at least {@code atLeast} entries. */
  private static void awaitEntries(String unit, int atLeast, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (LDAPConnection admin = slapd.admin()) {
      while (admin
              .search(
                  "ou=" + unit + "," + OpenLdapServer.SUFFIX,
                  SearchScope.ONE,
                  Filter.createEqualityFilter("objectClass", "inetOrgPerson"),
                  "1.1")
              .getEntryCount()
          < atLeast) {
        assertThat(System.nanoTime() - deadline)
            .as("%s entries in ou=%s within %s", atLeast, unit, timeout)
            .isNegative();
        Thread.sleep(20);
      }
    }
  }

  /** The successful adds the accesslog holds for entries below {@code unit}. */
  private static List<String> loggedAdds(String unit) throws LDAPException {
    try (LDAPConnection admin = slapd.admin()) {
      return admin
          .search(
              "cn=accesslog",
              SearchScope.ONE,
              Filter.createANDFilter(
                  Filter.createEqualityFilter("reqType", "add"),
                  Filter.createEqualityFilter("reqResult", "0")),
              "reqDN")
          .getSearchEntries()
          .stream()
          .map(e -> e.getAttributeValue("reqDN"))
          .filter(dn -> dn.toLowerCase().endsWith(",ou=" + unit + "," + OpenLdapServer.SUFFIX))
          .toList();
    }
  }

  @Test
  void aFullImportReadsTenThousandEntriesInPagesAndADeltaSeesExactlyTheFiveChanges(
      E2eEnvironment env) throws Exception {
    WorkflowClient client = client(env);
    try (LDAPConnection admin = slapd.admin()) {
      for (int n = 1; n <= 10_000; n++) {
        admin.add(person("people", n));
      }
    }

    StepOutcome full = only(run(client, step(0, "directory", "full-import")));

    assertThat(full.status()).as(full.message()).isEqualTo(StepStatus.Complete);
    // More than the bind account's size limit: only a paged search reads them all.
    assertThat(full.stats()).containsEntry("added", 10_000L).containsEntry("errors", 0L);
    assertThat(count("select count(*) from cso where connected_system_id = 'directory'"))
        .isEqualTo(10_000);

    try (LDAPConnection admin = slapd.admin()) {
      for (int n : List.of(11, 222, 3333)) {
        admin.modify(
            "cn=Person " + n + ",ou=people," + OpenLdapServer.SUFFIX,
            new Modification(ModificationType.REPLACE, "title", "Manager"));
      }
      admin.add(person("people", 10_001));
      admin.delete("cn=Person 4444,ou=people," + OpenLdapServer.SUFFIX);
    }

    StepOutcome delta = only(run(client, step(0, "directory", "delta-import")));

    assertThat(delta.status()).as(delta.message()).isEqualTo(StepStatus.Complete);
    assertThat(delta.stats())
        .containsEntry("updated", 3L)
        .containsEntry("added", 1L)
        .containsEntry("deleted", 1L)
        .containsEntry("objectsProcessed", 5L)
        .containsEntry("errors", 0L);
    assertThat(
            count(
                "select count(*) from cso where connected_system_id = 'directory'"
                    + " and attributes like '%Manager%'"))
        .isEqualTo(3);
  }

  /** Writes the HR file, imports and synchronises it, exports to the staff unit: the export. */
  private static StepOutcome syncAndExport(WorkflowClient client, Path dir, List<String> rows)
      throws Exception {
    writeHr(dir, rows);
    ExecutionResult result =
        run(
            client,
            step(0, "hr", "full-import"),
            step(1, "hr", "full-sync"),
            step(2, "staff", "export"));
    return result.steps().get(2);
  }

  @Test
  void anExportAddsModifiesRenamesAndDeletesAndTheDirectoryShowsEachChange(E2eEnvironment env)
      throws Exception {
    WorkflowClient client = client(env);
    Path dir = home.resolve("worker");
    List<String> rows = new ArrayList<>();
    for (int n = 1; n <= 1_000; n++) {
      rows.add(hrRow(n, "Staff " + n, "Clerk", "Active"));
    }
    StepOutcome adds = syncAndExport(client, dir, rows);
    assertThat(adds.status()).as(adds.message()).isEqualTo(StepStatus.Complete);
    assertThat(adds.stats()).containsEntry("exported", 1_000L).containsEntry("errors", 0L);
    assertThat(entries("staff")).hasSize(1_000);

    for (int n = 1; n <= 10; n++) {
      rows.set(n - 1, hrRow(n, "Staff " + n, "Senior Clerk", "Active"));
    }
    rows.set(499, hrRow(500, "Staff Five Hundred", "Clerk", "Active"));
    rows.set(999, hrRow(1000, "Staff 1000", "Clerk", "Leaver"));
    StepOutcome changes = syncAndExport(client, dir, rows);

    assertThat(changes.status()).as(changes.message()).isEqualTo(StepStatus.Complete);
    assertThat(changes.stats()).containsEntry("exported", 12L).containsEntry("errors", 0L);
    List<SearchResultEntry> staff = entries("staff");
    assertThat(staff).hasSize(999);
    Map<String, String> titles =
        staff.stream()
            .collect(
                Collectors.toMap(
                    e -> e.getAttributeValue("cn"), e -> e.getAttributeValue("title")));
    assertThat(titles.entrySet().stream().filter(e -> e.getValue().equals("Senior Clerk")))
        .extracting(Map.Entry::getKey)
        .containsExactlyInAnyOrder(
            "Staff 1",
            "Staff 2",
            "Staff 3",
            "Staff 4",
            "Staff 5",
            "Staff 6",
            "Staff 7",
            "Staff 8",
            "Staff 9",
            "Staff 10");
    assertThat(titles).containsKey("Staff Five Hundred").doesNotContainKey("Staff 500");
    assertThat(titles).doesNotContainKey("Staff 1000");

    // The confirming import finds every exported value in the directory: nothing drifted.
    StepOutcome confirming = only(run(client, step(0, "staff", "full-import")));
    assertThat(confirming.stats())
        .containsEntry("confirmed", 999L)
        .containsEntry("driftCorrections", 0L)
        .containsEntry("errors", 0L);
  }

  @Test
  void aWrongPasswordFailsTheStepAtOnceSayingTheDirectoryRefusedTheBind(E2eEnvironment env)
      throws Exception {
    WorkflowClient client = client(env);

    StepOutcome step = only(run(client, step(0, "wrong-password", "full-import").attempts(3)));

    assertThat(step.status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(step.attempts()).isEqualTo(1);
    assertThat(step.message())
        .contains("bind to " + slapd.url())
        .contains("as " + OpenLdapServer.BIND_DN + " failed: invalid credentials (49)")
        .doesNotContain(OpenLdapServer.BIND_PASSWORD);
  }

  @Test
  void anUnreachableDirectoryFailsTheStepAfterItsRetriesSayingItCannotBeReached(E2eEnvironment env)
      throws Exception {
    WorkflowClient client = client(env);

    StepOutcome step = only(run(client, step(0, "unreachable", "full-import").attempts(2)));

    assertThat(step.status()).isEqualTo(StepStatus.FailedWithError);
    // At least the killed attempt and the one that finished; a worker stalled past the heartbeat
    // timeout (e.g. while taking over the store) makes one more, which must not change the result.
    assertThat(step.attempts()).isGreaterThanOrEqualTo(2);
    assertThat(step.message())
        .contains("directory ldap://127.0.0.1:")
        .contains("cannot be reached");
  }

  @Test
  void anExportResumesAfterItsWorkerIsKilledWithNoDuplicateAddAndNoLostExport(E2eEnvironment env)
      throws Exception {
    // Enough for the export to run for a while after the kill, also on a fast machine.
    int people = 15_000;
    String crashNamespace = env.newNamespace("openldap-crash");
    Path dir = home.resolve("crash");
    // A store of its own (a schema of the tests' PostgreSQL), left in place like the test's files.
    E2eEnvironment.TestStore crashStore = E2eEnvironment.newStore();
    Map<String, String> crashEnv =
        workerEnv(env, dir, systems("crash"), crashNamespace, crashStore);
    List<String> rows = new ArrayList<>();
    for (int n = 1; n <= people; n++) {
      rows.add(hrRow(n, "Crash " + n, "Clerk", "Active"));
    }
    writeHr(dir, rows);
    WorkflowClient client = env.client(crashNamespace);
    WorkerProcess workerA = env.startWorker("openldap-crash-a", crashEnv);
    ExecutionResult synced = run(client, step(0, "hr", "full-import"), step(1, "hr", "full-sync"));
    assertThat(synced.steps())
        .allSatisfy(s -> assertThat(s.status()).isEqualTo(StepStatus.Complete));

    String id = "openldap-crash/" + UUID.randomUUID();
    ScheduleDefinition export =
        aSchedule("openldap-crash")
            .named("openldap-crash")
            .with(
                step(0, "staff", "export")
                    .attempts(5)
                    // Short, so the killed worker's attempt is noticed soon; long enough for a
                    // loaded machine's new worker to take over the store before its first beat.
                    .heartbeatTimeout(Duration.ofSeconds(20)))
            .definition();
    ScheduleExecutionWorkflow execution =
        ManualExecutions.start(client, id, export, ManualExecutions.TESTER);
    // Killed once the directory holds 1,000 of its entries: the export sends its pages pipelined,
    // so the kill finds a page's adds in flight, sent but not yet recorded in the store.
    awaitEntries("crash", 1_000, Duration.ofMinutes(5));
    workerA.kill();
    long addedAtKill = entries("crash").size();

    WorkerProcess workerB = env.startWorker("openldap-crash-b", crashEnv);
    ExecutionResult result = result(execution);
    workerB.terminate(Duration.ofSeconds(30));

    StepOutcome step = only(result);
    List<SearchResultEntry> crash = entries("crash");
    List<String> adds = loggedAdds("crash");
    Map<String, Long> exports = exportsByStatus(crashStore);
    // Every fact at once: a failure says which of them broke (count, directory, store), not the
    // first alone.
    SoftAssertions.assertSoftly(
        soft -> {
          soft.assertThat(step.status()).as(step.message()).isEqualTo(StepStatus.Complete);
          // At least the killed attempt and the one that finished; a worker stalled past the
          // heartbeat timeout (e.g. while taking over the store) makes one more, which must not
          // change the result.
          soft.assertThat(step.attempts()).isGreaterThanOrEqualTo(2);
          soft.assertThat(addedAtKill).as("entries at the kill").isBetween(1_000L, people - 1L);
          soft.assertThat(exports)
              .as("pending exports by status")
              .isEqualTo(Map.of("Exported", (long) people));
          soft.assertThat(step.stats())
              .containsEntry("exported", (long) people)
              .containsEntry("errors", 0L);
          soft.assertThat(crash).hasSize(people);
          soft.assertThat(crash.stream().map(e -> e.getAttributeValue("uid")).distinct())
              .hasSize(people);
          // Each person was added to the directory exactly once, across both attempts.
          soft.assertThat(adds).hasSize(people).doesNotHaveDuplicates();
        });
  }

  /** The store's pending exports, counted by status. */
  private static Map<String, Long> exportsByStatus(E2eEnvironment.TestStore store)
      throws SQLException {
    Map<String, Long> counts = new HashMap<>();
    try (Connection connection = store.connect();
        Statement sql = connection.createStatement();
        ResultSet rows =
            sql.executeQuery("select status, count(*) from pending_export group by status")) {
      while (rows.next()) {
        counts.put(rows.getString(1), rows.getLong(2));
      }
    }
    return counts;
  }
}
