package io.jimflow.dataplane;

import static io.jimflow.dataplane.RunProfileExecutorImplTest.CSV_SYSTEMS;
import static io.jimflow.dataplane.RunProfileExecutorImplTest.HEADER;
import static io.jimflow.dataplane.RunProfileExecutorImplTest.person;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.dataplane.config.DataPlaneConfigLoader;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.store.RunRecords.StoredRunItem;
import io.jimflow.store.Store;
import io.jimflow.store.TestStores;
import io.jimflow.testing.SettableClock;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One bad object is one error item, and it costs no other object anything: a row in error keeps its
 * object as it was (a full import never takes it for absent), and a value a CSV target's encoding
 * cannot hold leaves that one object out of the export while every other is exported.
 */
class OneBadObjectTest {

  private static final Charset LATIN_1 = StandardCharsets.ISO_8859_1;

  @TempDir Path dir;
  Store store;
  SettableClock clock = new SettableClock(Instant.parse("2026-03-01T02:00:00Z"));
  RunProfileExecutorImpl executor;
  final ProfileRuns runs =
      new ProfileRuns(
          "nightly-hr-sync",
          new Initiator(InitiatorType.Schedule, "nightly-hr-sync", "Nightly HR Sync"));

  @BeforeEach
  void setUp() throws IOException {
    store = TestStores.postgres();
    // The Directory is a CSV file in ISO-8859-1, which holds "Zoë" but not "Łukasz".
    Path systems = dir.resolve("systems.yaml");
    String shipped = Files.readString(CSV_SYSTEMS);
    String directory = "  - id: directory\n    name: Directory\n    connector: csv\n";
    assertThat(shipped).contains(directory + "    settings: {delimiter: \",\"}\n");
    Files.writeString(
        systems,
        shipped.replace(
            directory + "    settings: {delimiter: \",\"}\n",
            directory + "    settings: {delimiter: \",\", encoding: ISO-8859-1}\n"));
    executor =
        new RunProfileExecutorImpl(store, new DataPlaneConfigLoader().load(systems), dir, clock);
  }

  @AfterEach
  void tearDown() {
    if (store != null) {
      store.close();
    }
  }

  RunProfileOutcome execute(String system, String profile) {
    return executor.execute(runs.next(system, profile), new RecordingProgress());
  }

  void hrFile(String rows) throws IOException {
    Files.createDirectories(dir.resolve("data"));
    Files.writeString(dir.resolve("data/hr.csv"), HEADER + rows);
  }

  long count(String sql) {
    return ProfileRuns.count(store, sql);
  }

  List<String> errors(RunProfileOutcome outcome) {
    return ProfileRuns.items(store, clock, outcome).stream()
        .map(StoredRunItem::item)
        .filter(i -> i.isError())
        .map(i -> i.objectRef() + " " + i.errorType() + ": " + i.errorMessage())
        .toList();
  }

  String hrObject(int n) {
    return store.inTransaction(
        c -> {
          try (Statement s = c.createStatement();
              var rows =
                  s.executeQuery(
                      "select state || ' ' || attributes from cso where connected_system_id = 'hr'"
                          + " and anchor = 'E"
                          + n
                          + "'")) {
            return rows.next() ? rows.getString(1) : null;
          }
        });
  }

  @Test
  void aFullImportKeepsEveryObjectWhoseRowIsInErrorAsItWasAndMarksNoneOfThemAbsent()
      throws IOException {
    StringBuilder rows = new StringBuilder();
    for (int n = 1; n <= 6; n++) {
      rows.append(person(n, "R&D", "Employee", "Active"));
    }
    hrFile(rows.toString());
    assertThat(execute("HR System", "Full Import").status()).isEqualTo(StepStatus.Complete);
    List<String> before = List.of(hrObject(2), hrObject(3), hrObject(4), hrObject(5));
    // The store refuses E5's row alone when its page is written: a constraint of the database.
    store.inTransaction(
        c -> {
          try (Statement s = c.createStatement()) {
            s.execute(
                "alter table cso add constraint refuses_e5 check (attributes not like '%Refused%')");
          }
          return null;
        });

    hrFile(
        person(1, "Sales", "Employee", "Active")
            // Line 3: a field too many (an unquoted comma in the name), its anchor still first.
            + person(2, "Sales", "Employee", "Active").replace("Person 2", "Person, 2")
            // Line 4: a field too few.
            + "E3,First3,Last3\n"
            // Line 5: a NUL in a value.
            + person(4, "Sales", "Employee", "Active").replace("Engineer", "Engi\0neer")
            // Line 6: a value the store refuses.
            + person(5, "Sales", "Employee", "Active").replace("Engineer", "Refused")
            + person(6, "Sales", "Employee", "Active"));
    RunProfileOutcome imported = execute("HR System", "Full Import");

    assertThat(imported.status()).isEqualTo(StepStatus.CompleteWithError);
    assertThat(imported.stats())
        .containsEntry("updated", 2L)
        .containsEntry("errors", 4L)
        .containsEntry("deleted", 0L);
    assertThat(errors(imported))
        .extracting(e -> e.substring(0, e.indexOf(':')))
        .containsExactlyInAnyOrder(
            "hr.csv line 3 WrongColumnCount",
            "hr.csv line 4 WrongColumnCount",
            "hr.csv line 5 NulCharacter",
            "hr.csv line 6 StoreRefused");
    // Every object whose row is in error is as it was: not absent, not changed.
    assertThat(List.of(hrObject(2), hrObject(3), hrObject(4), hrObject(5)))
        .containsExactlyElementsOf(before)
        .allMatch(o -> o.startsWith("Normal "));
    assertThat(hrObject(1)).contains("Sales");
    assertThat(hrObject(6)).contains("Sales");
    assertThat(execute("HR System", "Full Synchronisation").stats())
        .containsEntry("disconnected", 0L);
  }

  @Test
  void aValueTheTargetsEncodingCannotHoldIsOneErrorItemNamingTheObjectAndTheRestIsExported()
      throws IOException {
    hrFile(
        person(1, "R&D", "Employee", "Active")
            + person(2, "R&D", "Employee", "Active").replace("Person 2", "Łukasz Nowak")
            + person(3, "R&D", "Employee", "Active").replace("Person 3", "Zoë Ďurová")
            + person(4, "R&D", "Employee", "Active").replace("Person 4", "Zoë Martin"));
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");

    RunProfileOutcome exported = execute("Directory", "Export");

    assertThat(exported.status()).isEqualTo(StepStatus.CompleteWithError);
    assertThat(exported.stats()).containsEntry("exported", 2L).containsEntry("errors", 2L);
    assertThat(errors(exported))
        .containsExactlyInAnyOrder(
            "E2 UnencodableValue: E2: displayName holds a character that ISO-8859-1 (the connected"
                + " system's encoding) cannot hold; it was not written and its export stays"
                + " pending",
            "E3 UnencodableValue: E3: displayName holds a character that ISO-8859-1 (the connected"
                + " system's encoding) cannot hold; it was not written and its export stays"
                + " pending");
    Path file = dir.resolve("data/directory.csv");
    assertThat(Files.readAllLines(file, LATIN_1))
        .containsExactly(
            "employeeId,displayName,givenName,surname,mail,department,title",
            "E1,Person 1,First1,Last1,p1@example.org,R&D,Engineer",
            "E4,Zoë Martin,First4,Last4,p4@example.org,R&D,Engineer");
    assertThat(
            count(
                "select count(*) from pending_export pe join cso c on c.id = pe.cso_id"
                    + " where pe.connected_system_id = 'directory' and pe.status = 'Pending'"))
        .isEqualTo(2);

    // The next export tries them again, and writes them once HR holds names the file can hold;
    // an object already in the file whose update it cannot hold keeps its row as it was.
    hrFile(
        person(1, "R&D", "Employee", "Active").replace("Engineer", "Inżynier")
            + person(2, "R&D", "Employee", "Active").replace("Person 2", "Lukasz Nowak")
            + person(3, "R&D", "Employee", "Active").replace("Person 3", "Zoë Durová")
            + person(4, "R&D", "Employee", "Active").replace("Person 4", "Zoë Martin"));
    execute("HR System", "Full Import");
    execute("HR System", "Full Synchronisation");
    RunProfileOutcome again = execute("Directory", "Export");

    assertThat(again.status()).isEqualTo(StepStatus.CompleteWithError);
    assertThat(errors(again))
        .singleElement()
        .asString()
        .startsWith("E1 UnencodableValue: E1: title holds a character that ISO-8859-1");
    assertThat(Files.readAllLines(file, LATIN_1))
        .containsExactly(
            "employeeId,displayName,givenName,surname,mail,department,title",
            "E1,Person 1,First1,Last1,p1@example.org,R&D,Engineer",
            "E4,Zoë Martin,First4,Last4,p4@example.org,R&D,Engineer",
            "E2,Lukasz Nowak,First2,Last2,p2@example.org,R&D,Engineer",
            "E3,Zoë Durová,First3,Last3,p3@example.org,R&D,Engineer");
  }
}
