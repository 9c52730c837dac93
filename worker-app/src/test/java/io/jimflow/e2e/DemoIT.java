package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.cli.JimflowCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
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
  void theDemoSyncsGeneratedPeopleAndRunsTheScriptSchedule(E2eEnvironment env) {
    env.sharedWorker();

    assertDemoEndsAsExpected(
        env.projectHome(), env.target(), env.namespace(), env.dataPlaneDirectory());
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
