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

  /** What one {@code jimflow data generate --on-worker} run printed and returned. */
  private record Run(int exit, String stdout, String stderr) {}

  private static Run generateOnWorker(E2eEnvironment env, Path out, String people) {
    env.sharedWorker();
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
            people,
            "--seed",
            "7",
            "--out",
            out.toString(),
            "--address",
            env.target(),
            "--namespace",
            env.namespace());
    return new Run(exit, stdout.toString(), stderr.toString());
  }

  @Test
  void aWorkerGeneratesTheExampleHrFileAsAWorkflow(E2eEnvironment env) throws Exception {
    // Below the worker's data directory (the data plane's base directory's data/), in a folder of
    // this test's own.
    Path out =
        env.dataPlaneDirectory()
            .resolve("data/generate-" + Long.toHexString(System.nanoTime()))
            .resolve("hr.csv");

    Run run = generateOnWorker(env, out, "500");

    assertThat(run.exit()).as("%s", run).isZero();
    assertThat(run.stdout()).contains("jimflow-data-generate/").contains("Wrote 500 people");
    assertThat(Files.readAllLines(out)).hasSize(501);
  }

  @Test
  void aWorkerRefusesToWriteOutsideItsDataDirectoryAndWritesNothing(E2eEnvironment env) {
    Path outside = env.newDirectory("generate-outside").resolve("hr.csv");

    Run run = generateOnWorker(env, outside, "5");

    assertThat(run.exit()).as("%s", run).isNotZero();
    assertThat(run.stderr())
        .contains("outFile '" + outside + "' is outside the data directory of this worker");
    assertThat(outside).doesNotExist();
    assertThat(outside.getParent()).isEmptyDirectory();
  }
}
