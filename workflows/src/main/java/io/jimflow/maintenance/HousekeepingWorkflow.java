package io.jimflow.maintenance;

import io.jimflow.maintenance.MaintenanceActivities.MvoDeletionResult;
import io.jimflow.resource.ResourceNotice;
import io.jimflow.resource.Resources;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One housekeeping cycle (JIM's idle-time housekeeping): deletes the MVOs whose deletion grace
 * period has passed, at most the cycle's cap, deprovisioning them where outbound rules say so. The
 * built-in schedule {@code jimflow-housekeeping} starts it every minute.
 */
@WorkflowInterface
public interface HousekeepingWorkflow {

  String TYPE = "Housekeeping";

  @WorkflowMethod(name = TYPE)
  MvoDeletionResult run(HousekeepingInput input);

  /** A resource lock granted the cycle's claim on the metaverse, or says who holds it. */
  @SignalMethod(name = Resources.NOTICE_SIGNAL)
  void resourceNotice(ResourceNotice notice);
}
