package io.jimflow.schedule;

import io.jimflow.common.TaskQueues;
import io.temporal.api.enums.v1.ParentClosePolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.ChildWorkflowOptions;
import io.temporal.workflow.Workflow;
import org.slf4j.Logger;

/**
 * Sends notifications from workflow code: each as a {@link NotificationWorkflow} child that lives
 * on after its parent ends (abandoned), so that delivery neither delays nor changes the parent's
 * outcome. Workflow code; callers put the call behind their own {@code Workflow.getVersion}.
 */
public final class Notifications {

  /** The {@code Workflow.getVersion} change after which executions notify how they ended. */
  public static final String CHANGE_ID = "execution-notifications";

  private static final Logger log = Workflow.getLogger(Notifications.class);

  private Notifications() {}

  /**
   * Starts delivering {@code notification} as the workflow {@code <this workflow's id>/<suffix>}
   * and returns once it has started; a start that fails is logged, never thrown.
   */
  public static void send(Notification notification, String suffix) {
    ChildWorkflowOptions options =
        ChildWorkflowOptions.newBuilder()
            .setWorkflowId(Workflow.getInfo().getWorkflowId() + "/" + suffix)
            .setTaskQueue(TaskQueues.SCHEDULES)
            .setParentClosePolicy(ParentClosePolicy.PARENT_CLOSE_POLICY_ABANDON)
            .setWorkflowIdReusePolicy(
                WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
            .setStaticSummary("notify: " + notification.event() + " " + notification.scheduleId())
            .build();
    Workflow.newDetachedCancellationScope(
            () -> {
              NotificationWorkflow child =
                  Workflow.newChildWorkflowStub(NotificationWorkflow.class, options);
              Async.procedure(child::deliver, notification);
              try {
                Workflow.getWorkflowExecution(child).get();
              } catch (TemporalFailure e) {
                log.warn("Could not start notifying {}: {}", notification.event(), e.getMessage());
              }
            })
        .run();
  }
}
