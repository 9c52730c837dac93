package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.jimflow.cli.JimflowCli;
import io.jimflow.schedule.deploy.DeployedSchedule;
import io.jimflow.schedule.deploy.TemporalScheduleStore;
import io.jimflow.worker.dev.EmbeddedDirectory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * {@code jimflow demo}: the shipped examples deploy, generated people flow through the Nightly HR
 * Sync into the LDAP directory (the delta run modifies exactly the three changed entries), the bind
 * password shows nowhere in the demo's histories, and the script schedule runs to its end.
 */
@ExtendWith(TemporalDevServerExtension.class)
class DemoIT {

  @Test
  void theDemoSyncsGeneratedPeopleAndRunsTheScriptSchedule(E2eEnvironment env) throws Exception {
    env.sharedWorker();
    // An operator's schedules, deployed before the demo from their own file: the demo, in its own
    // scope, must leave them exactly as they are.
    Path operatorFile =
        Files.writeString(
            env.newDirectory("demo-operator").resolve("operations.yaml"), OPERATOR_SCHEDULES);
    StringWriter applied = new StringWriter();
    CommandLine apply = JimflowCli.commandLine();
    apply.setOut(new PrintWriter(applied, true)).setErr(new PrintWriter(applied, true));
    assertThat(
            apply.execute(
                "schedules",
                "apply",
                "-f",
                operatorFile.toString(),
                "--address",
                env.target(),
                "--namespace",
                env.namespace()))
        .as(applied.toString())
        .isZero();
    Map<String, DeployedSchedule> before = operatorSchedules(env);
    assertThat(before).containsOnlyKeys(OPERATOR_IDS);

    assertDemoEndsAsExpected(
        env.projectHome(),
        env.target(),
        env.namespace(),
        env.dataPlaneDirectory(),
        env.sharedDirectory());

    assertThat(operatorSchedules(env)).isEqualTo(before);
    assertThat(Files.readString(env.sharedWorker().log(), StandardCharsets.UTF_8))
        .doesNotContain(E2eEnvironment.DIRECTORY_PASSWORD);
  }

  private static final List<String> OPERATOR_IDS = List.of("ops-backup", "ops-report", "ops-audit");

  private static final String OPERATOR_SCHEDULES =
      """
      scope: operations
      schedules:
        - id: ops-backup
          trigger: {cron: "0 1 * * *", timezone: UTC}
          steps:
            - {index: 0, name: Backup, executable: {path: count.sh}}
        - id: ops-report
          trigger: {every: {hours: 6}}
          steps:
            - {index: 0, name: Report, executable: {path: count.sh}}
        - id: ops-audit
          trigger: {cron: "30 4 * * MON", timezone: Europe/London}
          steps:
            - {index: 0, name: Audit, executable: {path: count.sh}}
      """;

  /** The operator's schedules as deployed: scope, fingerprint, paused state. */
  private static Map<String, DeployedSchedule> operatorSchedules(E2eEnvironment env) {
    return new TemporalScheduleStore(env.scheduleClient())
        .deployed(OPERATOR_IDS).stream()
            .filter(s -> OPERATOR_IDS.contains(s.id()))
            .collect(Collectors.toMap(DeployedSchedule::id, s -> s));
  }

  /**
   * Runs {@code jimflow demo} with 2,000 people against a server whose workers read their files
   * below {@code dataDirectory} and export the Directory to {@code directory} (bind password {@link
   * E2eEnvironment#DIRECTORY_PASSWORD}), and checks what it printed, what the directory holds and
   * that the password is nowhere in the histories of the demo's executions.
   */
  static void assertDemoEndsAsExpected(
      Path projectHome,
      String target,
      String namespace,
      Path dataDirectory,
      EmbeddedDirectory directory) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = JimflowCli.commandLine();
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));

    int exit =
        cli.execute(
            "demo",
            "-f",
            projectHome.resolve("config/schedules.yaml").toString(),
            "--address",
            target,
            "--namespace",
            namespace,
            "--people",
            "2000",
            "--data-dir",
            dataDirectory.resolve("data").toString());

    assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
    assertThat(out.toString())
        .contains("script-demo")
        .containsPattern("GROUP\\s+STEP\\s+STATUS\\s+ATTEMPTS")
        .containsPattern("Flaky Check\\s+FailedWithError")
        .containsPattern("Wrap Up\\s+Complete")
        .contains("Script Demo ended CompleteWithError")
        .contains("Nightly HR Sync ended Complete")
        .containsPattern("HR System - Full Import\\s+Complete\\s+1\\s+[0-9.]+\\s+.*added=2000")
        .contains("Changed the job title of 3 people")
        .containsPattern("HR System - Delta Import\\s+Complete\\s+1\\s+[0-9.]+\\s+.*updated=3")
        .containsPattern(
            "HR System - Delta Sync\\s+Complete\\s+1\\s+[0-9.]+\\s+.*objectsProcessed=3")
        .containsPattern(
            "Directory - Export[ \\t]+Complete[ \\t]+1[ \\t]+[0-9.]+[ \\t][^\\n]*\\bexported=3\\b")
        .contains("Hourly HR Delta Sync ended Complete");

    assertTheDirectoryHoldsThePeopleAndTheThreeNewTitles(
        directory, dataDirectory.resolve("data/hr.csv"));
    Map<String, String> executions = demoExecutions(out.toString());
    assertThat(executions)
        .containsKeys("Nightly HR Sync", "Hourly HR Delta Sync", "Script Demo")
        .hasSize(3);
    // As JIM lists a group's outcomes: the failed step on top of its group.
    StringWriter shown = new StringWriter();
    int showExit =
        JimflowCli.commandLine()
            .setOut(new PrintWriter(shown, true))
            .setErr(new PrintWriter(err, true))
            .execute(
                "executions",
                "show",
                executions.get("Script Demo"),
                "--address",
                target,
                "--namespace",
                namespace);
    assertThat(showExit).as(err.toString()).isZero();
    assertThat(shown.toString())
        .containsPattern(
            "(?s)\\n0\\s+Prepare\\s.*\\n1\\s+Flaky Check\\s+FailedWithError.*\\n1\\s+Count\\s+"
                + "Complete.*\\n2\\s+Wrap Up\\s");
    executions.forEach(
        (schedule, id) -> {
          // Its payloads are read (the schedule's name is in the input), and hold no password.
          assertThat(history(target, namespace, id))
              .as(id)
              .contains(schedule)
              .doesNotContain(E2eEnvironment.DIRECTORY_PASSWORD);
        });
  }

  /**
   * One {@code inetOrgPerson} entry per person the HR file keeps (leavers are not provisioned), and
   * exactly the three people whose title the demo changed carry their new title; only they were
   * modified after being created.
   */
  private static void assertTheDirectoryHoldsThePeopleAndTheThreeNewTitles(
      EmbeddedDirectory directory, Path hr) {
    List<String> active = new ArrayList<>();
    List<String> champions = new ArrayList<>();
    try {
      List<String> lines = Files.readAllLines(hr, StandardCharsets.UTF_8);
      List<String> header = List.of(lines.get(0).split(",", -1));
      for (String line : lines.subList(1, lines.size())) {
        String[] fields = line.split(",", -1);
        String id = fields[header.indexOf("employeeId")];
        if (!line.endsWith(",Terminated")) {
          active.add(id);
          if (line.contains(",Identity Champion ")) {
            champions.add(id);
          }
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    assertThat(champions).hasSize(3);

    List<String> uids = new ArrayList<>();
    List<String> titled = new ArrayList<>();
    List<String> modified = new ArrayList<>();
    try (LDAPConnection ldap =
        new LDAPConnection(
            "127.0.0.1",
            directory.port(),
            EmbeddedDirectory.BIND_DN,
            E2eEnvironment.DIRECTORY_PASSWORD)) {
      for (SearchResultEntry entry :
          ldap.search(
                  EmbeddedDirectory.PEOPLE_DN,
                  SearchScope.ONE,
                  "(objectClass=inetOrgPerson)",
                  "uid",
                  "title",
                  "createTimestamp",
                  "modifyTimestamp")
              .getSearchEntries()) {
        String uid = entry.getAttributeValue("uid");
        uids.add(uid);
        String title = entry.getAttributeValue("title");
        if (title != null && title.startsWith("Identity Champion ")) {
          titled.add(uid);
        }
        if (!Objects.equals(
            entry.getAttributeValue("createTimestamp"),
            entry.getAttributeValue("modifyTimestamp"))) {
          modified.add(uid);
        }
      }
    } catch (com.unboundid.ldap.sdk.LDAPException e) {
      throw new AssertionError("cannot read the directory: " + e.getMessage(), e);
    }
    assertThat(uids).containsExactlyInAnyOrderElementsOf(active);
    assertThat(titled).containsExactlyInAnyOrderElementsOf(champions);
    assertThat(modified).containsExactlyInAnyOrderElementsOf(champions);
  }

  /**
   * The workflow ids of the executions the demo started by their schedule's name, from its "Running
   * NAME as ID" lines.
   */
  private static Map<String, String> demoExecutions(String output) {
    Map<String, String> ids = new java.util.LinkedHashMap<>();
    Matcher running = Pattern.compile("(?m)^Running (.+) as (\\S+) \\(watch").matcher(output);
    while (running.find()) {
      ids.put(running.group(1), running.group(2));
    }
    return ids;
  }

  private static String history(String target, String namespace, String workflowId) {
    try {
      return TemporalHistories.showJson(target, namespace, workflowId);
    } catch (Exception e) {
      throw new AssertionError("cannot show the history of " + workflowId + ": " + e, e);
    }
  }
}
