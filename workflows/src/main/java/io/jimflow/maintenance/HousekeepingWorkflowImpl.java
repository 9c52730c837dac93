package io.jimflow.maintenance;

import io.jimflow.maintenance.MaintenanceActivities.FinishRunRequest;
import io.jimflow.maintenance.MaintenanceActivities.MvoDeletionRequest;
import io.jimflow.maintenance.MaintenanceActivities.MvoDeletionResult;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Workflow;
import java.util.Map;

/** See {@link HousekeepingWorkflow}. */
public class HousekeepingWorkflowImpl implements HousekeepingWorkflow {

  private final MaintenanceActivities activities =
      Workflow.newActivityStub(MaintenanceActivities.class, MaintenanceOptions.LONG);

  @Override
  public MvoDeletionResult run(HousekeepingInput input) {
    // Fixed here so that every retry of the activity writes to the same run record.
    String runRecordId = Workflow.randomUUID().toString();
    try {
      return activities.deleteDueMvos(
          new MvoDeletionRequest(
              runRecordId,
              Initiators.orSystem(input.initiator()),
              Workflow.getInfo().getWorkflowId(),
              input.maxMvosPerCycle()));
    } catch (ActivityFailure e) {
      // A record the lost attempts opened must not stay InProgress; finishing a missing one is a
      // no-op.
      Workflow.newDetachedCancellationScope(
              () ->
                  Workflow.newActivityStub(MaintenanceActivities.class, MaintenanceOptions.SHORT)
                      .finishRun(
                          new FinishRunRequest(
                              runRecordId,
                              Failures.isCancellation(e) ? "Cancelled" : "FailedWithError",
                              Failures.message(e),
                              Map.of())))
          .run();
      throw e;
    }
  }
}
