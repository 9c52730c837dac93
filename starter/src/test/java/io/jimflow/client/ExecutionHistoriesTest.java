package io.jimflow.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExecutionHistoriesTest {

  private static final Instant T = Instant.parse("2026-11-20T02:00:00Z");

  @Test
  void executionsTemporalNoLongerHasComeFromTheStoreInStartOrder() {
    List<ExecutionSummary> temporal =
        List.of(
            new ExecutionSummary(
                "c", "r", "nightly", ExecutionStatus.InProgress, T.plusSeconds(30), null));
    List<ExecutionRecord> stored =
        List.of(
            stored("c", ExecutionStatus.InProgress, T.plusSeconds(30)),
            stored("b", ExecutionStatus.Complete, T.plusSeconds(20)),
            stored("a", ExecutionStatus.Failed, T.plusSeconds(10)));

    List<ExecutionSummary> merged = ExecutionHistories.merge(temporal, stored, 10);

    assertThat(merged)
        .extracting(
            ExecutionSummary::workflowId, ExecutionSummary::source, ExecutionSummary::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("c", "temporal", ExecutionStatus.InProgress),
            org.assertj.core.groups.Tuple.tuple("b", "store", ExecutionStatus.Complete),
            org.assertj.core.groups.Tuple.tuple("a", "store", ExecutionStatus.Failed));
  }

  @Test
  void theMergedListingKeepsTheNewestUpToTheLimit() {
    List<ExecutionRecord> stored =
        List.of(
            stored("b", ExecutionStatus.Complete, T.plusSeconds(20)),
            stored("a", ExecutionStatus.Complete, T.plusSeconds(10)));

    assertThat(ExecutionHistories.merge(List.of(), stored, 1))
        .extracting(ExecutionSummary::workflowId)
        .containsExactly("b");
  }

  private static ExecutionRecord stored(String id, ExecutionStatus status, Instant startedAt) {
    return new ExecutionRecord(
        id, "run", "nightly", "Nightly", null, null, status, null, 1, 1, startedAt, null,
        List.of());
  }
}
