package io.jimflow.schedule;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * The activities that run a schedule's steps on a worker of {@code TaskQueues.SCHEDULES}.
 *
 * <p>Failures reach the workflow as {@code ApplicationFailure}s whose first detail is a {@link
 * StepFailureDetails} (so it can report the attempt honestly); configuration errors carry the type
 * {@link StepFailures#CONFIGURATION_ERROR} and are never retried.
 */
@ActivityInterface
public interface StepActivities {

  /**
   * Runs one attempt of a step and returns how it ended. Heartbeats a {@link StepHeartbeat} while
   * it runs; a retried attempt resumes from the last heartbeat's checkpoint.
   */
  @ActivityMethod
  StepRunResult runStep(StepRunRequest request);

  /**
   * Finalizes what a RunProfile step left open when it ended without a result (timed out, lost, or
   * cancelled), e.g. its run record. Idempotent.
   *
   * @return the id of the step's run record (finalized now or before), or null when it has none
   */
  @ActivityMethod
  String abandonStep(AbandonStepRequest request);

  /**
   * Runs the schedule's imports and synchronisations in preview mode and reports what they would
   * change, leaving nothing changed ({@link SchedulePreview}).
   */
  @ActivityMethod(name = "PreviewSchedule")
  default SchedulePreview previewSchedule(PreviewRequest request) {
    throw new UnsupportedOperationException("this worker previews nothing");
  }
}
