package io.jimflow.schedule;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/** Runs {@code PreviewSchedule} once, with retries for lost workers. Workflow code. */
public class SchedulePreviewWorkflowImpl implements SchedulePreviewWorkflow {

  static final ActivityOptions OPTIONS =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofHours(2))
          .setHeartbeatTimeout(Duration.ofMinutes(2))
          .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(3).build())
          .build();

  @Override
  public SchedulePreview preview(PreviewRequest request) {
    if (request == null
        || request.definition() == null
        || request.definition().steps() == null
        || request.definition().steps().size() > PreviewRequest.MAX_STEPS) {
      throw ApplicationFailure.newNonRetryableFailure(
          "A preview needs a schedule definition with at most "
              + PreviewRequest.MAX_STEPS
              + " steps",
          StepFailures.INVALID_INPUT);
    }
    return Workflow.newActivityStub(StepActivities.class, OPTIONS).previewSchedule(request);
  }
}
