package io.jimflow.client;

import io.jimflow.schedule.ExecutionRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Merges Temporal's listing of executions with the execution history in the store. */
public final class ExecutionHistories {

  private ExecutionHistories() {}

  /**
   * The newest {@code limit} executions of both: Temporal's entry where it has the execution (it
   * knows best while it runs), the store's record for one Temporal no longer has.
   */
  public static List<ExecutionSummary> merge(
      List<ExecutionSummary> temporal, List<ExecutionRecord> stored, int limit) {
    Map<String, ExecutionSummary> byId = new LinkedHashMap<>();
    temporal.forEach(e -> byId.put(e.workflowId(), e));
    for (ExecutionRecord record : stored) {
      byId.putIfAbsent(record.executionId(), summary(record));
    }
    List<ExecutionSummary> all = new ArrayList<>(byId.values());
    all.sort(
        Comparator.comparing(
                ExecutionSummary::startedAt,
                Comparator.nullsLast(Comparator.<Instant>naturalOrder()))
            .reversed());
    return all.subList(0, Math.min(all.size(), Math.max(1, limit)));
  }

  /** A stored execution as a listing shows it. */
  public static ExecutionSummary summary(ExecutionRecord record) {
    return new ExecutionSummary(
        record.executionId(),
        record.runId(),
        record.scheduleId(),
        record.status(),
        record.startedAt(),
        record.endedAt(),
        ExecutionSummary.STORE);
  }
}
