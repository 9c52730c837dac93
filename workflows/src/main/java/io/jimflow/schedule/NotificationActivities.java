package io.jimflow.schedule;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Posts notifications to the webhook the worker's configuration allows, on {@code SCHEDULES}. */
@ActivityInterface
public interface NotificationActivities {

  /** The failure type of a notification the worker refuses to post (its URL is not allowed). */
  String REFUSED = "NotificationRefused";

  /**
   * Posts the notification; does nothing when the worker has no webhook configured.
   *
   * @throws io.temporal.failure.ApplicationFailure non-retryable, of type {@link #REFUSED}, when
   *     the notification names a webhook the worker does not allow
   */
  @ActivityMethod(name = "Notify")
  void notify(Notification notification);
}
