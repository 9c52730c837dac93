package io.jimflow.schedule;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

public class NotificationWorkflowImpl implements NotificationWorkflow {

  /** How long a notification is retried while its receiver is down. */
  static final Duration DELIVERY_WINDOW = Duration.ofHours(24);

  private final NotificationActivities webhook =
      Workflow.newActivityStub(
          NotificationActivities.class,
          ActivityOptions.newBuilder()
              .setStartToCloseTimeout(Duration.ofSeconds(30))
              .setScheduleToCloseTimeout(DELIVERY_WINDOW)
              .setRetryOptions(
                  RetryOptions.newBuilder()
                      .setInitialInterval(Duration.ofSeconds(5))
                      .setBackoffCoefficient(2)
                      .setMaximumInterval(Duration.ofMinutes(10))
                      .setDoNotRetry(NotificationActivities.REFUSED)
                      .build())
              .setSummary("post notification")
              .build());

  @Override
  public void deliver(Notification notification) {
    webhook.notify(notification);
  }
}
