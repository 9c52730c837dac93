package io.jimflow.schedule;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * A preview of a schedule as a Temporal workflow, visible in the UI like any execution: one
 * activity runs the schedule's imports and synchronisations in preview mode (everything rolled
 * back) and reports what they would change; a worker lost on the way makes the activity start again
 * on another, since nothing of it stayed.
 */
@WorkflowInterface
public interface SchedulePreviewWorkflow {

  String TYPE = "SchedulePreview";

  @WorkflowMethod(name = TYPE)
  SchedulePreview preview(PreviewRequest request);
}
