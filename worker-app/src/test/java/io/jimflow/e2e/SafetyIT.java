package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.jimflow.exampledata.ExamplePeople;
import io.jimflow.worker.dev.EmbeddedDirectory;
import java.io.ByteArrayOutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 33's "Done when", on a real worker, Temporal server, store and directory, through the CLI
 * as an operator would: an emptied HR file and a change to every title hold the Nightly HR Sync for
 * a person, who approves or rejects it; a preview of three changed titles reports three updates and
 * changes nothing, and the real run then updates exactly those three; rows with an invalid byte and
 * a NUL are two error items and nothing else.
 */
@ExtendWith(TemporalDevServerExtension.class)
class SafetyIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int PEOPLE = 40;
  private static final int TITLE = 6;
  private static final String IMPORT = "HR System - Full Import";
  private static final String EXPORT = "Directory - Export";

  /**
   * Everything the store holds that a run changes, row by row: objects, identities, exports, run
   * records with their watermarks, and how many changes the history holds.
   */
  private static final String STORE_STATE =
      String.join(
          " union all ",
          "select 'cso', connected_system_id || ' ' || anchor || ' ' || content_hash || ' ' || state"
              + " || ' ' || sync_pending, coalesce(last_seen_run, '') from cso",
          "select 'mvo', id || ' ' || attributes, coalesce(cast(deletion_eligible_at as varchar),"
              + " '') from mvo",
          "select 'export', id || ' ' || status || ' ' || change_type, attributes from"
              + " pending_export",
          "select 'run', id || ' ' || status, coalesce(watermark, '') from run_record",
          "select 'history', (select count(*) from cso_change) || ' ' || (select count(*) from"
              + " mvo_change), ''");

  private E2eEnvironment env;
  private String namespace;
  private E2eEnvironment.TestStore store;
  private EmbeddedDirectory directory;
  private Path hr;
  private String schedules;

  @Test
  void aRunThatWouldChangeTooMuchWaitsForAPersonAndAPreviewChangesNothing(E2eEnvironment env)
      throws Exception {
    this.env = env;
    namespace = env.newNamespace("safety");
    Path dir = env.newDirectory("safety");
    store = E2eEnvironment.newStore();
    Map<String, String> workerEnv = new HashMap<>(store.environment());
    workerEnv.put("TEMPORAL_NAMESPACE", namespace);
    workerEnv.put("JIMFLOW_DATA_PLANE_BASE_DIRECTORY", dir.toString());
    env.startWorker("safety", workerEnv);
    directory = env.directory(store.url());
    schedules = env.projectHome().resolve("config/schedules.yaml").toString();
    hr = dir.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    StringWriter written = new StringWriter();
    new ExamplePeople(33L).write(PEOPLE, written, n -> {});
    List<String> lines = written.toString().lines().toList();
    String header = lines.get(0);
    List<String[]> rows = new ArrayList<>();
    lines.stream().skip(1).forEach(l -> rows.add(l.split(",", -1)));
    assertThat(rows).hasSize(PEOPLE).allMatch(r -> r.length == 10);
    write(header, rows);
    CliRun first = cli("start", "nightly-hr-sync", "-f", schedules, "--wait");
    assertThat(first.exit()).as(first.out() + first.err()).isZero();
    Map<String, String> titles = titles();
    assertThat(titles).isNotEmpty();

    // 1. The HR file cut to its header: the import holds, saying how many of how many; a
    // rejection leaves every HR object, identity and directory entry as it was.
    List<String> storeBefore = storeState();
    List<String> entriesBefore = entries();
    Files.writeString(hr, header + "\n");
    String emptied = start("nightly-hr-sync");
    JsonNode held = awaitHeld(emptied, IMPORT);
    assertThat(held.get("message").asText())
        .startsWith(
            "held: the full import would mark absent "
                + PEOPLE
                + " of "
                + PEOPLE
                + " objects of HR System (100%)");
    CliRun awaiting = cli("executions", "list", "--awaiting-approval", "--json");
    assertThat(awaiting.out()).contains(emptied);
    decide("reject", emptied, IMPORT, "HR sent half a file");
    assertThat(awaitEnd(emptied)).isEqualTo("Failed");
    assertThat(objectsAndEntriesOnly(storeState()))
        .containsExactlyInAnyOrderElementsOf(objectsAndEntriesOnly(storeBefore));
    assertThat(entries()).isEqualTo(entriesBefore);

    // 2. Every title changed: the export holds with a sample of old and new titles; approved,
    // the directory holds the new titles and the run record names who approved and why.
    write(header, retitled(rows, "Senior "));
    String everyone = start("nightly-hr-sync");
    held = awaitHeld(everyone, EXPORT);
    assertThat(held.get("message").asText())
        .startsWith("held: the export would update " + titles.size() + " of " + titles.size())
        .containsPattern("\n  - Update [^:]+: title '[^']+' -> 'Senior [^']+'");
    CliRun shown = cli("executions", "show", everyone);
    assertThat(shown.out())
        .contains("Step '" + EXPORT + "' awaits approval:")
        .containsPattern("(?m)^  - Update [^:]+: title '[^']+' -> 'Senior [^']+'$");
    assertThat(entries()).isEqualTo(entriesBefore);
    decide("approve", everyone, EXPORT, "HR retitled everyone");
    awaitEnd(everyone);
    Map<String, String> senior = titles();
    assertThat(senior)
        .hasSameSizeAs(titles)
        .allSatisfy((uid, title) -> assertThat(title).isEqualTo("Senior " + titles.get(uid)));
    String user = System.getProperty("user.name");
    assertThat(lastExportRecord().get("message").asText())
        .startsWith("approved by " + user + ": HR retitled everyone");

    // 3. The same with a rejection: nothing reaches the directory, and the next run holds again.
    List<String[]> lead = retitled(rows, "Lead ");
    write(header, lead);
    List<String> entriesSenior = entries();
    String rejected = start("nightly-hr-sync");
    awaitHeld(rejected, EXPORT);
    decide("reject", rejected, EXPORT, "not until HR confirms");
    assertThat(awaitEnd(rejected)).isEqualTo("Failed");
    assertThat(entries()).isEqualTo(entriesSenior);
    String again = start("nightly-hr-sync");
    assertThat(awaitHeld(again, EXPORT).get("message").asText())
        .startsWith("held: the export would update " + titles.size());
    assertThat(entries()).isEqualTo(entriesSenior);
    decide("approve", again, EXPORT, "HR confirmed");
    awaitEnd(again);
    assertThat(titles()).allSatisfy((uid, title) -> assertThat(title).startsWith("Lead "));

    // 4. Three titles changed: the preview reports three updates for the directory and changes
    // nothing; the real run then updates exactly those three.
    List<String[]> three = new ArrayList<>();
    Map<String, String> expected = new TreeMap<>(titles());
    int changed = 0;
    for (String[] row : lead) {
      String[] copy = row.clone();
      if (changed < 3 && expected.containsKey(row[0])) {
        copy[TITLE] = "Principal " + row[TITLE];
        expected.put(row[0], copy[TITLE]);
        changed++;
      }
      three.add(copy);
    }
    write(header, three);
    storeBefore = storeState();
    entriesBefore = entries();
    CliRun preview = cli("preview", "hourly-hr-delta-sync", "-f", schedules, "--json");
    assertThat(preview.exit()).as(preview.err()).isZero();
    JsonNode directoryPreview = system(JSON.readTree(preview.out()), "Directory");
    assertThat(directoryPreview.get("exports").get("updates").asLong()).isEqualTo(3);
    assertThat(directoryPreview.get("exports").get("adds").asLong()).isZero();
    assertThat(directoryPreview.get("exports").get("deletes").asLong()).isZero();
    List<String> previewed = new ArrayList<>();
    for (JsonNode sample : directoryPreview.get("samples")) {
      for (JsonNode attribute : sample.get("attributes")) {
        previewed.add(attribute.get("name").asText() + "=" + attribute.get("after").asText());
      }
    }
    assertThat(previewed)
        .containsExactlyInAnyOrderElementsOf(
            expected.entrySet().stream()
                .filter(e -> e.getValue().startsWith("Principal "))
                .map(e -> "title=" + e.getValue())
                .toList());
    List<String> hrPreviewed = new ArrayList<>();
    for (JsonNode sample : system(JSON.readTree(preview.out()), "HR System").get("importSamples")) {
      hrPreviewed.add(sample.get("change").asText() + " " + sample.get("anchor").asText());
      assertThat(sample.get("attributes").get(0).get("after").asText()).startsWith("Principal ");
    }
    assertThat(hrPreviewed)
        .containsExactlyInAnyOrderElementsOf(
            expected.entrySet().stream()
                .filter(e -> e.getValue().startsWith("Principal "))
                .map(e -> "Update " + e.getKey())
                .toList());
    CliRun previewText = cli("preview", "hourly-hr-delta-sync", "-f", schedules);
    assertThat(previewText.out())
        .containsPattern("(?m)^  Update [^:]+: title 'Lead [^']+' -> 'Principal Lead [^']+'$");
    assertThat(storeState()).isEqualTo(storeBefore);
    assertThat(entries()).isEqualTo(entriesBefore);
    CliRun delta = cli("start", "hourly-hr-delta-sync", "-f", schedules, "--wait");
    assertThat(delta.exit()).as(delta.out() + delta.err()).isZero();
    assertThat(lastExportRecord().get("totals").get("exported").asLong()).isEqualTo(3);
    assertThat(titles()).isEqualTo(expected);

    // 5. A row with an invalid UTF-8 byte and one with a NUL: two error items naming their lines,
    // every other row imported, no U+FFFD anywhere in the store or the directory.
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.writeBytes((header + "\n").getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < three.size(); i++) {
      byte[] line = (String.join(",", three.get(i)) + "\n").getBytes(StandardCharsets.UTF_8);
      if (i == 4) {
        line =
            (String.join(",", three.get(i)).replaceFirst(",", ",\u0000") + "\n")
                .getBytes(StandardCharsets.UTF_8);
      }
      bytes.writeBytes(line);
      if (i == 1) {
        // An ISO-8859-1 "é" in a row of its own: not UTF-8.
        bytes.writeBytes(
            ("E9999999,Ren"
                    + "#"
                    + ",Broken,Ren# Broken,r@example.org,R&D,Engineer,London,"
                    + "Employee,Active\n")
                .replace('#', '\u00e9')
                .getBytes(StandardCharsets.ISO_8859_1));
      }
    }
    Files.write(hr, bytes.toByteArray());
    CliRun broken = cli("start", "nightly-hr-sync", "-f", schedules, "--wait");
    assertThat(broken.exit()).as(broken.out() + broken.err()).isEqualTo(1);
    assertThat(broken.out() + broken.err()).contains("ended CompleteWithError");
    JsonNode importRecord = lastRecord("hr", "full-import");
    assertThat(importRecord.get("status").asText()).isEqualTo("CompleteWithError");
    assertThat(importRecord.get("totals").get("errors").asLong()).isEqualTo(2);
    assertThat(importRecord.get("totals").get("deleted").asLong()).isZero();
    CliRun errors = cli("runs", "items", importRecord.get("id").asText(), "--errors", "--json");
    List<String> named = new ArrayList<>();
    JSON.readTree(errors.out())
        .get("items")
        .forEach(i -> named.add(i.get("object").asText() + " " + i.get("errorType").asText()));
    // Line 1 is the header: the byte's row is line 4, the NUL's (the fifth person) line 7.
    assertThat(named)
        .containsExactlyInAnyOrder("hr.csv line 4 InvalidBytes", "hr.csv line 7 NulCharacter");
    try (Connection c = store.connect();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "select (select count(*) from cso where connected_system_id = 'hr' and state ="
                    + " 'Normal'), (select count(*) from cso where attributes like '%\uFFFD%'),"
                    + " (select count(*) from mvo where attributes like '%\uFFFD%'),"
                    + " (select count(*) from pending_export where attributes like '%\uFFFD%')")) {
      r.next();
      assertThat(r.getLong(1)).as("HR objects").isEqualTo(PEOPLE);
      assertThat(List.of(r.getLong(2), r.getLong(3), r.getLong(4))).containsOnly(0L);
    }
    assertThat(String.join("\n", entries())).doesNotContain("\uFFFD", "\u0000");
    assertThat(titles()).isEqualTo(expected);
  }

  /** The rows with every title led by {@code prefix}. */
  private static List<String[]> retitled(List<String[]> rows, String prefix) {
    return rows.stream()
        .map(
            row -> {
              String[] copy = row.clone();
              copy[TITLE] = prefix + row[TITLE];
              return copy;
            })
        .toList();
  }

  private void write(String header, List<String[]> rows) throws Exception {
    StringBuilder text = new StringBuilder(header).append('\n');
    rows.forEach(r -> text.append(String.join(",", r)).append('\n'));
    Files.writeString(hr, text.toString());
  }

  /** Starts a schedule's execution from the file and returns its id. */
  private String start(String schedule) {
    CliRun started = cli("start", schedule, "-f", schedules);
    assertThat(started.exit()).as(started.err()).isZero();
    return started.out().lines().findFirst().orElseThrow().strip();
  }

  /** Waits until the step waits in AwaitingApproval and returns it as executions show has it. */
  private JsonNode awaitHeld(String id, String step) throws Exception {
    AtomicReference<JsonNode> held = new AtomicReference<>();
    Await.until(
        () -> {
          CliRun show = cli("executions", "show", id, "--json");
          if (show.exit() != 0) {
            return false;
          }
          try {
            for (JsonNode s : JSON.readTree(show.out()).get("steps")) {
              if (s.get("name").asText().equals(step)
                  && s.get("status").asText().equals("AwaitingApproval")) {
                held.set(s);
                return true;
              }
            }
            return false;
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        },
        "step '" + step + "' of " + id + " awaits approval",
        Duration.ofMinutes(3),
        Duration.ofMillis(300));
    return held.get();
  }

  private void decide(String decision, String id, String step, String reason) {
    CliRun decided = cli("executions", decision, id, "--step", step, "--reason", reason);
    assertThat(decided.exit()).as(decided.out() + decided.err()).isZero();
  }

  /** Waits for the execution's end and returns its status. */
  private String awaitEnd(String id) throws Exception {
    AtomicReference<String> status = new AtomicReference<>();
    Await.until(
        () -> {
          CliRun show = cli("executions", "show", id, "--json");
          try {
            JsonNode execution = JSON.readTree(show.out());
            status.set(execution.get("status").asText());
            JsonNode ended = execution.path("endedAt");
            return !ended.isNull() && !ended.isMissingNode();
          } catch (Exception e) {
            return false;
          }
        },
        id + " ends",
        Duration.ofMinutes(3),
        Duration.ofMillis(300));
    return status.get();
  }

  private JsonNode lastExportRecord() throws Exception {
    return lastRecord("directory", "export");
  }

  /** The newest run record of a run profile, as {@code runs list --json} has it. */
  private JsonNode lastRecord(String system, String profile) throws Exception {
    CliRun list = cli("runs", "list", "--system", system, "--json");
    assertThat(list.exit()).as(list.err()).isZero();
    for (JsonNode record : JSON.readTree(list.out()).get("runs")) {
      if (record.get("runProfile").asText().equals(profile)) {
        return record;
      }
    }
    throw new AssertionError("no " + profile + " record of " + system + " in " + list.out());
  }

  private static JsonNode system(JsonNode preview, String name) {
    for (JsonNode system : preview.get("systems")) {
      if (system.get("system").asText().equals(name)) {
        return system;
      }
    }
    throw new AssertionError("no system " + name + " in " + preview);
  }

  /** The store's rows, as {@link #STORE_STATE} selects them. */
  private List<String> storeState() throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = store.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(STORE_STATE)) {
      while (r.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= 3; i++) {
          row.append(r.getString(i)).append('|');
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  /**
   * The objects, identities and exports of a state, without its run records and change history: a
   * rejected run adds its record, and changes nothing else.
   */
  private static List<String> objectsAndEntriesOnly(List<String> state) {
    return state.stream()
        .filter(r -> r.startsWith("cso|") || r.startsWith("mvo|") || r.startsWith("export|"))
        // A rejected full import found no object: what it saw is not kept either way.
        .map(r -> r.startsWith("cso|") ? r.substring(0, r.lastIndexOf('|', r.length() - 2)) : r)
        .toList();
  }

  /** Every directory entry with every attribute, as LDIF, sorted. */
  private List<String> entries() throws Exception {
    List<String> entries = new ArrayList<>();
    try (LDAPConnection ldap = ldap()) {
      for (SearchResultEntry entry :
          ldap.search(EmbeddedDirectory.PEOPLE_DN, SearchScope.ONE, "(objectClass=*)", "*", "+")
              .getSearchEntries()) {
        entries.add(entry.toLDIFString());
      }
    }
    entries.sort(null);
    return entries;
  }

  /** The directory's people: uid to title. */
  private Map<String, String> titles() throws Exception {
    Map<String, String> titles = new TreeMap<>();
    try (LDAPConnection ldap = ldap()) {
      for (SearchResultEntry entry :
          ldap.search(
                  EmbeddedDirectory.PEOPLE_DN,
                  SearchScope.ONE,
                  "(objectClass=inetOrgPerson)",
                  "uid",
                  "title")
              .getSearchEntries()) {
        titles.put(entry.getAttributeValue("uid"), entry.getAttributeValue("title"));
      }
    }
    return titles;
  }

  private LDAPConnection ldap() throws Exception {
    return new LDAPConnection(
        "127.0.0.1",
        directory.port(),
        EmbeddedDirectory.BIND_DN,
        E2eEnvironment.DIRECTORY_PASSWORD);
  }

  private CliRun cli(String... args) {
    return CliRun.of(env, namespace, args);
  }
}
