package io.jimflow.monitoring;

import io.jimflow.testing.Requirement;
import io.jimflow.worker.dev.TemporalCli;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Debian's Prometheus tools ({@code apt-get install prometheus}) and jimflow's rules files. */
public final class Promtool {

  public static final Path PROMTOOL = Path.of("/usr/bin/promtool");
  public static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");

  private Promtool() {}

  /** The shipped alert rules: {@code config/prometheus/jimflow-alerts.yml}. */
  public static Path rules() {
    return TemporalCli.projectHome().orElseThrow().resolve("config/prometheus/jimflow-alerts.yml");
  }

  static Optional<String> problem() {
    if (!Files.isExecutable(PROMTOOL) || !Files.isExecutable(PROMETHEUS)) {
      return Optional.of("no " + PROMTOOL + " or " + PROMETHEUS);
    }
    return Optional.empty();
  }

  /** Runs a test class only where Prometheus is installed, and always on CI. */
  public static final class Required implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return Requirement.evaluate(
          "Prometheus tests", problem(), "apt-get install -y prometheus (Debian's package)");
    }
  }

  /** What {@code promtool args...} printed, and its exit code. */
  record Run(int exit, String output) {}

  static Run run(Path workingDirectory, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(PROMTOOL.toString()));
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command)
            .directory(workingDirectory.toFile())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("promtool did not end: " + output);
    }
    return new Run(process.exitValue(), output);
  }
}
