package io.jimflow.schedule.steps;

import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.secrets.activities.Secrets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Runs one program through {@link ExecutableRunner} with the default output limit and prints how it
 * ended and its output: run in a JVM of a small heap by {@code ExecutableRunnerTest}.
 */
public final class OutputMemoryProbe {

  private OutputMemoryProbe() {}

  public static void main(String[] args) {
    ExecutableRunner runner =
        new ExecutableRunner(
            Path.of(args[0]),
            ProgramAllowList.anyBelowRoot(),
            Set.of(),
            ExecutableRunner.DEFAULT_OUTPUT_LIMIT,
            Map.of("PATH", System.getenv("PATH")),
            Secrets.none(),
            Containment.detect());
    ExecutableRunner.Finished finished =
        runner.run(
            new ExecutableStep(args[1], null, null, Map.of()),
            Map.of(),
            new RecordingProgress(null),
            Duration.ofSeconds(120));
    System.out.println("exit " + finished.exitCode());
    System.out.println(finished.output());
  }
}
