package io.jimflow.runrecords;

import io.jimflow.schedule.ExecutionRecord;
import java.util.List;

/**
 * The answer to a {@link RunRecordsQuestion}: the run records asked for and, for a show or items
 * question, the record's items (errors first for a show); or the execution records asked for.
 */
public record RunRecordsAnswer(
    List<RunRecordView> records, List<RunItemView> items, List<ExecutionRecord> executions) {
  public RunRecordsAnswer {
    records = records == null ? List.of() : List.copyOf(records);
    items = items == null ? List.of() : List.copyOf(items);
    executions = executions == null ? List.of() : List.copyOf(executions);
  }

  public RunRecordsAnswer(List<RunRecordView> records, List<RunItemView> items) {
    this(records, items, List.of());
  }
}
