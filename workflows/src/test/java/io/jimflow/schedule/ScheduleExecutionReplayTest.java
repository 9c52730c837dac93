package io.jimflow.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.testing.WorkflowReplayer;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays recorded example executions against the current workflow code: a change that would break
 * executions already under way fails here. {@link RecordHistoriesTest} says how histories are made.
 */
class ScheduleExecutionReplayTest {

  static Stream<Path> histories() throws Exception {
    URL dir = ScheduleExecutionReplayTest.class.getResource("/histories");
    try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
      List<Path> json = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
      return json.stream();
    }
  }

  @Test
  void theExampleExecutionsAreRecorded() throws Exception {
    assertThat(histories().map(p -> p.getFileName().toString()))
        .contains("complete.json", "failed-stop.json", "tolerated.json", "cancelled.json");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("histories")
  void aRecordedExecutionReplaysWithoutNondeterminism(Path history) throws Exception {
    WorkflowReplayer.replayWorkflowExecution(history.toFile(), ScheduleExecutionWorkflowImpl.class);
  }
}
