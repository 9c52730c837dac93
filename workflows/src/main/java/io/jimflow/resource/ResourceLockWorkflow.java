package io.jimflow.resource;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * Grants one resource (a connected system, the metaverse) to one claimant at a time, in the order
 * the claims arrived, across executions, schedules, manual runs and workers.
 *
 * <p>A claimant is a workflow: the lock tells it by a {@link Resources#NOTICE_SIGNAL} signal that
 * its claim was granted or waits (and for whom), and the claimant gives the resource back with
 * {@link #release}. A holder whose workflow has closed without releasing (terminated, timed out) is
 * found by a probe signal while others wait, and loses the resource.
 */
@WorkflowInterface
public interface ResourceLockWorkflow {

  String TYPE = "ResourceLock";
  String CLAIM = "claim";
  String RELEASE = "release";

  /** Runs while anyone holds or waits for the resource; ends when it is free. */
  @WorkflowMethod(name = TYPE)
  void run(ResourceLockState state);

  @SignalMethod(name = CLAIM)
  void claim(ResourceClaim claim);

  @SignalMethod(name = RELEASE)
  void release(ResourceRelease release);

  /** The holder and the waiting claims. */
  @QueryMethod
  ResourceLockState state();
}
