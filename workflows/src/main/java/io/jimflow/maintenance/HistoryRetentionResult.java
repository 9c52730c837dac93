package io.jimflow.maintenance;

import java.util.List;
import java.util.Map;

/**
 * What a history retention run deleted.
 *
 * @param status Complete, or CompleteWithError when some kinds could not be purged
 * @param totals per kind ({@link HistoryKind#totalName()}), how many entries went
 * @param errors one line per kind that failed
 * @param notes what the worker changed of the input, one line per kind (a period shorter than the
 *     worker's raised to it, a batch size above the worker's clamped); empty when nothing
 */
public record HistoryRetentionResult(
    String runRecordId,
    String status,
    Map<String, Long> totals,
    List<String> errors,
    List<String> notes) {

  public HistoryRetentionResult {
    totals = Map.copyOf(totals);
    errors = List.copyOf(errors);
    notes = notes == null ? List.of() : List.copyOf(notes);
  }
}
