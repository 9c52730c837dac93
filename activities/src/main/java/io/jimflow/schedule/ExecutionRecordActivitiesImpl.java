package io.jimflow.schedule;

import io.jimflow.store.ExecutionRecords;
import io.jimflow.store.Store;
import java.time.Clock;

/** Writes execution records for the schedule executions of this worker's task queue. */
public final class ExecutionRecordActivitiesImpl implements ExecutionRecordActivities {

  private final Store store;
  private final ExecutionRecords records;

  public ExecutionRecordActivitiesImpl(Store store, Clock clock) {
    this.store = store;
    this.records = new ExecutionRecords(clock);
  }

  @Override
  public void recordExecution(ExecutionRecordWrite write) {
    store.inTransaction(c -> records.save(c, write.revision(), write.execution()));
  }
}
