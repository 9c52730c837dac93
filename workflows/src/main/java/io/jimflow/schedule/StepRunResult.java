package io.jimflow.schedule;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How one attempt of a step ended when it ended by itself (not by a failure or cancellation).
 *
 * @param status Complete, CompleteWithWarning, CompleteWithError or FailedWithError
 * @param attempt the attempt that produced this result, starting at 1
 * @param message what the step reported (a program's output tail, a run record's summary)
 * @param stats counters the step reported
 * @param runRecordId the RunProfile run record holding the details; null for other step types
 */
public record StepRunResult(
    StepStatus status, int attempt, String message, Map<String, Long> stats, String runRecordId) {

  public StepRunResult {
    // in the order given (Map.copyOf's order changes from one JVM to the next)
    stats = stats == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(stats));
  }
}
