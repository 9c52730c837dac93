package io.jimflow.maintenance;

import io.jimflow.resource.ResourceNotice;
import io.jimflow.resource.Resources;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * Deletes a connected system (JIM's DeleteConnectedSystem task): first marks the MVOs that lose
 * their last authoritative object by the deletion rules, then deletes the system with its objects,
 * pending exports and run profiles. On failure the system is set back to Active, so the deletion
 * can be retried, and the workflow fails with the reason.
 */
@WorkflowInterface
public interface DeleteConnectedSystemWorkflow {

  String TYPE = "DeleteConnectedSystem";

  @WorkflowMethod(name = TYPE)
  SystemMaintenanceResult run(SystemMaintenanceInput input);

  /** A resource lock granted the task's claim, or says who holds what it waits for. */
  @SignalMethod(name = Resources.NOTICE_SIGNAL)
  void resourceNotice(ResourceNotice notice);
}
