package io.jimflow.schedule;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Writes a schedule execution's record and its steps' records to the store, on a worker of {@code
 * TaskQueues.SCHEDULES}. Idempotent and order-tolerant: a write never replaces a newer one.
 */
@ActivityInterface
public interface ExecutionRecordActivities {

  /**
   * Creates or updates the execution record and the step records the write carries.
   *
   * @param write the execution as of {@code revision}; an execution record already at a higher
   *     revision keeps its own fields (the step records are written either way, each is final)
   */
  @ActivityMethod(name = "RecordExecution")
  void recordExecution(ExecutionRecordWrite write);

  /**
   * @param revision grows with every write of one execution
   */
  record ExecutionRecordWrite(int revision, ExecutionRecord execution) {}
}
