package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.cli.JimflowCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/** {@code jimflow data generate --on-worker}: a worker writes the file, as a workflow. */
@ExtendWith(TemporalDevServerExtension.class)
class DataGenerationIT {

  @Test
  void aWorkerGeneratesTheExampleHrFileAsAWorkflow(E2eEnvironment env) throws Exception {
    env.sharedWorker();
    Path out = env.newDirectory("generate").resolve("hr.csv");
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    CommandLine cli = JimflowCli.commandLine();
    cli.setOut(new PrintWriter(stdout, true)).setErr(new PrintWriter(stderr, true));

    int exit =
        cli.execute(
            "data",
            "generate",
            "--on-worker",
            "--people",
            "500",
            "--seed",
            "7",
            "--out",
            out.toString(),
            "--address",
            env.target(),
            "--namespace",
            env.namespace());

    assertThat(exit).as("stdout:%n%s%nstderr:%n%s", stdout, stderr).isZero();
    assertThat(stdout.toString()).contains("jimflow-data-generate/").contains("Wrote 500 people");
    assertThat(Files.readAllLines(out)).hasSize(501);
  }
}
