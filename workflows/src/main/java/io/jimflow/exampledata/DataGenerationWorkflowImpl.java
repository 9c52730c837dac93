package io.jimflow.exampledata;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/** See {@link DataGenerationWorkflow}. */
public class DataGenerationWorkflowImpl implements DataGenerationWorkflow {

  private final DataGenerationActivities activities =
      Workflow.newActivityStub(
          DataGenerationActivities.class,
          ActivityOptions.newBuilder()
              .setStartToCloseTimeout(Duration.ofHours(6))
              .setHeartbeatTimeout(Duration.ofSeconds(30))
              .setRetryOptions(
                  RetryOptions.newBuilder()
                      .setMaximumAttempts(3)
                      .setDoNotRetry(
                          DataGenerationActivities.NO_GENERATOR,
                          IllegalArgumentException.class.getName())
                      .build())
              .build());

  @Override
  public DataGenerationResult run(DataGenerationInput input) {
    if (input.people() < 1 || input.people() > MAX_PEOPLE) {
      throw ApplicationFailure.newNonRetryableFailure(
          "people must be between 1 and " + MAX_PEOPLE + ", not " + input.people(), "BadInput");
    }
    if (input.outFile() == null || input.outFile().isBlank()) {
      throw ApplicationFailure.newNonRetryableFailure("an output file is needed", "BadInput");
    }
    // Fixed once, so that a retried attempt writes the same people.
    long seed = input.seed() != null ? input.seed() : Workflow.newRandom().nextLong();
    return activities.generate(
        new DataGenerationInput(
            input.people(), input.outFile(), seed, Initiator.orSystem(input.initiator())));
  }
}
