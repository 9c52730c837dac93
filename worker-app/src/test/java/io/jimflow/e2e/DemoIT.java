package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.cli.JimflowCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/** {@code jimflow demo}: the shipped examples deploy and the script schedule runs to its end. */
@ExtendWith(TemporalDevServerExtension.class)
class DemoIT {

  @Test
  void theDemoAppliesTheExamplesAndPrintsTheScriptScheduleResult(E2eEnvironment env) {
    env.sharedWorker();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = JimflowCli.commandLine();
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));

    int exit =
        cli.execute(
            "demo",
            "-f",
            env.projectHome().resolve("config/schedules.yaml").toString(),
            "--address",
            env.target(),
            "--namespace",
            env.namespace());

    assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
    assertThat(out.toString())
        .contains("script-demo")
        .containsPattern("GROUP\\s+STEP\\s+STATUS\\s+ATTEMPTS")
        .containsPattern("Flaky Check\\s+FailedWithError")
        .containsPattern("Wrap Up\\s+Complete")
        .contains("Script Demo ended CompleteWithError");
  }
}
