package io.jimflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataGenerateCommandTest {

  @TempDir Path dir;

  @Test
  void generatesTheRequestedPeopleWithAProgressBar() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    var cli =
        JimflowCli.commandLine(
            settings -> {
              throw new AssertionError("data generate needs no Temporal");
            });
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    Path file = dir.resolve("data/hr.csv");

    int exit = cli.execute("data", "generate", "--people", "2500", "--out", file.toString());

    assertThat(exit).isZero();
    assertThat(Files.readAllLines(file)).hasSize(2_501);
    assertThat(out.toString()).contains("Wrote 2,500 people to");
    assertThat(err.toString()).contains("100% 2,500/2,500");
  }

  @Test
  void aCountBelowOneIsBadInput() {
    var cli =
        JimflowCli.commandLine(
            settings -> {
              throw new AssertionError("not used");
            });
    cli.setErr(new PrintWriter(new StringWriter()));
    assertThat(
            cli.execute(
                "data", "generate", "--people", "0", "--out", dir.resolve("x.csv").toString()))
        .isEqualTo(JimflowCli.BAD_INPUT);
  }
}
