package io.jimflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.testing.JimflowTestEnvironment;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.metadata.POJOWorkflowImplMetadata;
import io.temporal.common.metadata.POJOWorkflowMethodMetadata;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays every stored history (real executions, {@code histories/<WorkflowType>/*.json}) against
 * the current workflow code. A change to the order or kind of commands a workflow emits that is not
 * behind {@code Workflow.getVersion} breaks the executions already open on a worker upgrade, and
 * fails here. {@code RecordHistoriesIT} (module worker-app) records new histories;
 * docs/development.md says when.
 */
class RecordedHistoriesReplayTest {

  private static final List<Class<?>> WORKFLOWS = JimflowTestEnvironment.WORKFLOW_IMPLEMENTATIONS;

  static Stream<Path> histories() throws Exception {
    URL dir = RecordedHistoriesReplayTest.class.getResource("/histories");
    try (Stream<Path> files = Files.walk(Path.of(dir.toURI()))) {
      return files.filter(f -> f.toString().endsWith(".json")).sorted().toList().stream();
    }
  }

  @Test
  void everyWorkflowTypeHasAtLeastOneRecordedHistory() throws Exception {
    Set<String> types =
        WORKFLOWS.stream()
            .flatMap(w -> POJOWorkflowImplMetadata.newInstance(w).getWorkflowMethods().stream())
            .map(POJOWorkflowMethodMetadata::getName)
            .collect(Collectors.toSet());
    Set<String> recorded =
        histories()
            .map(
                h -> {
                  try {
                    return WorkflowExecutionHistory.fromJson(Files.readString(h))
                        .getEvents()
                        .get(0)
                        .getWorkflowExecutionStartedEventAttributes()
                        .getWorkflowType()
                        .getName();
                  } catch (Exception e) {
                    throw new IllegalStateException(h.toString(), e);
                  }
                })
            .collect(Collectors.toSet());
    assertThat(recorded).containsAll(types);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("histories")
  void aRecordedExecutionReplaysWithoutNondeterminism(Path history) throws Exception {
    JimflowTestEnvironment.replay(
        WorkflowExecutionHistory.fromJson(Files.readString(history)),
        WORKFLOWS.toArray(Class<?>[]::new));
  }
}
