package io.jimflow.runrecords;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

public class RunRecordsWorkflowImpl implements RunRecordsWorkflow {

  // A read of the store: quick, and worth a couple of retries when a worker is lost.
  private final RunRecordActivities store =
      Workflow.newActivityStub(
          RunRecordActivities.class,
          ActivityOptions.newBuilder()
              .setStartToCloseTimeout(Duration.ofMinutes(1))
              .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(3).build())
              .setSummary("read run records")
              .build());

  @Override
  public RunRecordsAnswer run(RunRecordsQuestion question) {
    return store.answer(question);
  }
}
