package io.jimflow.schedule.activities;

import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionRecordActivities;
import io.jimflow.schedule.StepRecord;
import io.jimflow.store.ExecutionRecords;
import io.jimflow.store.Store;
import java.time.Clock;
import java.time.Duration;

/**
 * Writes execution records for the schedule executions of this worker's task queue, and counts the
 * executions and steps whose start or end a write records first.
 */
public final class ExecutionRecordActivitiesImpl implements ExecutionRecordActivities {

  private final Store store;
  private final ExecutionRecords records;
  private final JimflowMetrics metrics;

  public ExecutionRecordActivitiesImpl(Store store, Clock clock) {
    this(store, clock, JimflowMetrics.none());
  }

  public ExecutionRecordActivitiesImpl(Store store, Clock clock, JimflowMetrics metrics) {
    this.store = store;
    this.records = new ExecutionRecords(clock);
    this.metrics = metrics;
  }

  @Override
  public void recordExecution(ExecutionRecordWrite write) {
    ExecutionRecord execution = write.execution();
    ExecutionMilestones milestones =
        store.inTransaction(
            c -> {
              ExecutionRecords.Stored before = records.lockStored(c, execution.executionId());
              records.save(c, write.revision(), execution);
              return ExecutionMilestones.of(before, execution);
            });
    String schedule = execution.scheduleId();
    String trigger = execution.trigger() == null ? null : execution.trigger().name();
    if (milestones.started()) {
      metrics.executionStarted(schedule, trigger);
    }
    for (StepRecord step : milestones.stepsEnded()) {
      if (step.startedAt() != null && step.endedAt() != null) {
        metrics.stepEnded(
            schedule,
            step.type(),
            step.status().name(),
            Duration.between(step.startedAt(), step.endedAt()));
      }
    }
    if (milestones.ended()) {
      metrics.executionEnded(schedule, trigger, execution.status().name(), execution.endedAt());
    }
  }
}
