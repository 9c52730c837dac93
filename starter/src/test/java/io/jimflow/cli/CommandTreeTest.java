package io.jimflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CommandTreeTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli =
        JimflowCli.commandLine(
            settings -> {
              throw new AssertionError("no command here may connect");
            },
            args);
    cli.setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  @Test
  void theTopLevelUsageListsEveryCommandWithItsDescription() {
    assertThat(run("--help")).isZero();

    assertThat(out.toString())
        .contains("setup ", "schedules ", "executions ", "items ", "runs ", "data ")
        .contains("Deploy and manage the Temporal Schedules");
  }

  @Test
  void aNamedCommandIsBuiltInFullWithItsOptions() {
    assertThat(run("schedules", "list", "--help")).isZero();

    assertThat(out.toString()).contains("Usage: jimflow schedules list", "--scope", "--address");
  }

  @Test
  void aMistypedCommandStillGetsASuggestionAndExitTwo() {
    assertThat(run("schedules", "lis")).isEqualTo(2);

    assertThat(err.toString()).contains("Did you mean: schedules list?");
  }

  @Test
  void everyCommandOfTheFullTreeRendersItsUsage() {
    CommandLine full = JimflowCli.commandLine(settings -> null);
    // Eleven commands and groups, help, and the hidden old name of start.
    assertThat(full.getSubcommands()).hasSize(13);
    full.getSubcommands().values().stream()
        .flatMap(
            c ->
                java.util.stream.Stream.concat(
                    java.util.stream.Stream.of(c), c.getSubcommands().values().stream()))
        .forEach(c -> assertThat(c.getUsageMessage()).contains("Usage: jimflow"));
  }

  @Test
  void aGroupWithoutOneOfItsCommandsShowsItsUsageAndExitsTwo() {
    assertThat(run("executions")).isEqualTo(JimflowCli.BAD_INPUT);

    assertThat(err.toString())
        .contains("Missing required subcommand", "Usage: jimflow executions", "list", "cancel");
  }

  @Test
  void theOldNameOfStartStillWorksButIsNotListed() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString())
        .containsPattern("(?m)^  start +Start an execution")
        .doesNotContainPattern("(?m)^  run ");

    out.getBuffer().setLength(0);
    assertThat(run("run", "--help")).isZero();
    assertThat(out.toString()).contains("Usage: jimflow run", "SCHEDULE-ID", "--exclusive");
  }
}
