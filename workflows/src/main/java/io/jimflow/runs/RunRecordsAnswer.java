package io.jimflow.runs;

import java.util.List;

/**
 * The answer to a {@link RunRecordsQuestion}: the records asked for and, for a show or items
 * question, the record's items (errors first for a show).
 */
public record RunRecordsAnswer(List<RunRecordView> records, List<RunItemView> items) {
  public RunRecordsAnswer {
    records = records == null ? List.of() : List.copyOf(records);
    items = items == null ? List.of() : List.copyOf(items);
  }
}
