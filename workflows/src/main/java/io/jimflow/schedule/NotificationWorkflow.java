package io.jimflow.schedule;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * Delivers one notification, retrying while the receiver is down, apart from what it reports on: an
 * execution that notifies ends at once, and a receiver that is down delays the message but loses
 * none (for up to {@link NotificationWorkflowImpl#DELIVERY_WINDOW}).
 */
@WorkflowInterface
public interface NotificationWorkflow {

  String TYPE = "JimflowNotification";

  @WorkflowMethod(name = TYPE)
  void deliver(Notification notification);
}
