package io.jimflow.maintenance;

import io.jimflow.resource.ResourceNotice;
import io.jimflow.resource.Resources;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * Clears a connected system's objects (JIM's ClearConnectedSystemObjects task): its CSOs, their
 * pending exports and, if asked, their change history. The system stays configured; its next full
 * import starts from nothing. While it runs, the system's run profiles refuse to run.
 */
@WorkflowInterface
public interface ClearConnectedSystemWorkflow {

  String TYPE = "ClearConnectedSystem";

  /** The workflow id for a system: one clear or delete per system at a time. */
  static String workflowId(String connectedSystem) {
    return "jimflow-system-" + connectedSystem;
  }

  @WorkflowMethod(name = TYPE)
  SystemMaintenanceResult run(SystemMaintenanceInput input);

  /** A resource lock granted the task's claim, or says who holds what it waits for. */
  @SignalMethod(name = Resources.NOTICE_SIGNAL)
  void resourceNotice(ResourceNotice notice);
}
