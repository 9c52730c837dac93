package io.jimflow.workitem.activities;

import io.jimflow.workitem.RunAttempt;
import io.jimflow.workitem.RunClaim;
import io.jimflow.workitem.RunGrant;
import io.jimflow.workitem.ShutdownNotice;
import io.jimflow.workitem.WorkItemState;
import io.jimflow.workitem.WorkItemWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowUpdateException;
import java.util.Optional;

/**
 * {@link WorkItemControl} through the Temporal client: update to claim, query to follow, signal.
 */
public final class TemporalWorkItemControl implements WorkItemControl {

  private final WorkflowClient client;

  public TemporalWorkItemControl(WorkflowClient client) {
    this.client = client;
  }

  @Override
  public Optional<RunGrant> claim(String guid, long token) {
    try {
      return Optional.of(stub(guid).claimRun(new RunClaim(token)));
    } catch (WorkflowUpdateException refused) {
      return Optional.empty();
    }
  }

  @Override
  public WorkItemState state(String guid) {
    return stub(guid).show().state();
  }

  @Override
  public RunAttempt attempt(String guid) {
    return stub(guid).attempt();
  }

  @Override
  public void reportShutdown(String guid, long token) {
    stub(guid).shutdownRequested(new ShutdownNotice(token));
  }

  private WorkItemWorkflow stub(String guid) {
    return client.newWorkflowStub(WorkItemWorkflow.class, guid);
  }
}
