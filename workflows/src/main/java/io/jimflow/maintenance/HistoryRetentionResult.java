package io.jimflow.maintenance;

import java.util.List;
import java.util.Map;

/**
 * What a history retention run deleted.
 *
 * @param status Complete, or CompleteWithError when some kinds could not be purged
 * @param totals per kind ({@link HistoryKind#totalName()}), how many entries went
 * @param errors one line per kind that failed
 */
public record HistoryRetentionResult(
    String runRecordId, String status, Map<String, Long> totals, List<String> errors) {

  public HistoryRetentionResult {
    totals = Map.copyOf(totals);
    errors = List.copyOf(errors);
  }
}
