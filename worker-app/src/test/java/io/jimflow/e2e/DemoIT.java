package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.cli.JimflowCli;
import io.jimflow.schedules.DeployedSchedule;
import io.jimflow.schedules.TemporalScheduleStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * {@code jimflow demo}: the shipped examples deploy, generated people flow through the Nightly HR
 * Sync, and the script schedule runs to its end.
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
        env.projectHome(), env.target(), env.namespace(), env.dataPlaneDirectory());

    assertThat(operatorSchedules(env)).isEqualTo(before);
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
   * below {@code dataDirectory}, and checks what it printed.
   */
  static void assertDemoEndsAsExpected(
      Path projectHome, String target, String namespace, Path dataDirectory) {
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
        .contains("Hourly HR Delta Sync ended Complete");
  }
}
