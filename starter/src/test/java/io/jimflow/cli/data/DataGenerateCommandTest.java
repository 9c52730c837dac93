package io.jimflow.cli.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.cli.JimflowCli;
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
    // Not a terminal: no redrawn bar, only the closing line.
    assertThat(err.toString()).isEqualTo(String.format("2,500/2,500 people (100%%)%n"));
  }

  @Test
  void awayFromATerminalProgressIsALineEveryFewSecondsAtMost() {
    StringWriter err = new StringWriter();
    long[] now = {0};
    var bar =
        new DataGenerateCommand.ProgressBar(
            new PrintWriter(err), 100_000, true, false, () -> now[0]);
    long step = DataGenerateCommand.ProgressBar.LINE_INTERVAL.toNanos() / 4;
    for (long written = 1_000; written <= 100_000; written += 1_000) {
      now[0] += step / 10; // 100 updates over 2.5 intervals
      bar.update(written);
    }
    bar.done();

    assertThat(err.toString()).doesNotContain("\r");
    assertThat(err.toString().lines()).hasSize(3).last().isEqualTo("100,000/100,000 people (100%)");
  }

  @Test
  void onATerminalTheBarIsRedrawnInPlace() {
    StringWriter err = new StringWriter();
    var bar = new DataGenerateCommand.ProgressBar(new PrintWriter(err), 200, true, true, () -> 0);
    for (long written = 1; written <= 200; written++) {
      bar.update(written);
    }
    bar.done();

    assertThat(err.toString()).startsWith("\r[").contains("100% 200/200").endsWith("\n");
    assertThat(err.toString().indexOf('\n')).isEqualTo(err.toString().length() - 1);
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
