package io.jimflow.schedule.steps;

import io.jimflow.schedule.StepStatus;
import java.util.Map;

/**
 * How a run profile run ended, as its run record says.
 *
 * @param status Complete, CompleteWithWarning, CompleteWithError or FailedWithError
 * @param stats the run record's totals, by name (e.g. "added", "updated", "errors")
 * @param runRecordId the run record that holds the details and run items
 */
public record RunProfileOutcome(
    StepStatus status, String message, Map<String, Long> stats, String runRecordId) {

  public RunProfileOutcome {
    stats = stats == null ? Map.of() : Map.copyOf(stats);
  }
}
