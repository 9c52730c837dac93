package io.jimflow.runrecords;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One run record as programs and the CLI see it.
 *
 * @param totals the record's totals by name (added, updated, projected, exported, errors, ...)
 * @param itemCount how many run items the record has
 */
public record RunRecordView(
    String id,
    String connectedSystem,
    String runProfile,
    String runType,
    String status,
    String message,
    String initiatorType,
    String initiatorId,
    String initiatorName,
    String executionId,
    String scheduleId,
    Integer stepIndex,
    String stepName,
    int attempts,
    long objectsToProcess,
    long objectsProcessed,
    Map<String, Long> totals,
    long itemCount,
    Instant startedAt,
    Instant endedAt) {

  public RunRecordView {
    // in the order given (Map.copyOf's order changes from one JVM to the next)
    totals = totals == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(totals));
  }
}
