package io.jimflow.schedule.activities;

import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.StepRecord;
import io.jimflow.store.ExecutionRecords.Stored;
import java.util.List;

/**
 * What one write of an execution record tells for the first time: that the execution started (the
 * store had no record of it), that it ended (the store's record was not final yet) and which of its
 * steps ended (the store had no record of them). A write repeated by a retry finds its own earlier
 * effect in the store, so it tells nothing again.
 *
 * @param started the write created the record
 * @param ended the write gave the record its final status
 * @param stepsEnded the steps of the write the store had no record of
 */
public record ExecutionMilestones(boolean started, boolean ended, List<StepRecord> stepsEnded) {

  /** The milestones of writing {@code written} over what the store held before. */
  public static ExecutionMilestones of(Stored before, ExecutionRecord written) {
    boolean started = before.status().isEmpty();
    boolean ended =
        written.status().isFinal() && before.status().map(s -> !s.isFinal()).orElse(true);
    List<StepRecord> steps =
        written.steps().stream().filter(s -> !before.steps().contains(s.position())).toList();
    return new ExecutionMilestones(started, ended, steps);
  }
}
