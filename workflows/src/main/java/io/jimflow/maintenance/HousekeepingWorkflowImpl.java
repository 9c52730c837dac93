package io.jimflow.maintenance;

import io.jimflow.maintenance.MaintenanceActivities.FinishRunRequest;
import io.jimflow.maintenance.MaintenanceActivities.MvoDeletionRequest;
import io.jimflow.maintenance.MaintenanceActivities.MvoDeletionResult;
import io.jimflow.maintenance.MaintenanceActivities.SweepRequest;
import io.jimflow.maintenance.MaintenanceActivities.SweepResult;
import io.jimflow.resource.ResourceLocks;
import io.jimflow.resource.ResourceNotice;
import io.jimflow.resource.Resources;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Workflow;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;

/** See {@link HousekeepingWorkflow}. */
public class HousekeepingWorkflowImpl implements HousekeepingWorkflow {

  private final MaintenanceActivities activities =
      Workflow.newActivityStub(MaintenanceActivities.class, MaintenanceOptions.LONG);

  /** The {@code Workflow.getVersion} change that added the sweep of stranded records. */
  static final String SWEEP_CHANGE_ID = "sweep-stranded-records";

  private static final Logger log = Workflow.getLogger(HousekeepingWorkflowImpl.class);

  private final ResourceLocks locks = new ResourceLocks();

  @Override
  public void resourceNotice(ResourceNotice notice) {
    locks.onNotice(notice);
  }

  @Override
  public MvoDeletionResult run(HousekeepingInput input) {
    SweepResult swept = null;
    if (Workflow.getVersion(SWEEP_CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1) {
      swept = sweep();
    }
    ResourceLocks.Held held = null;
    if (Workflow.getVersion(Resources.EXCLUSION_CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1) {
      // MVO deletions must not interleave with a synchronisation's writes to the metaverse.
      held = locks.acquire(List.of(Resources.METAVERSE), "mvo-deletion", "Housekeeping", w -> {});
    }
    try {
      return deleteDueMvos(input).withSwept(swept);
    } finally {
      locks.release(held);
    }
  }

  /** Finalizes stranded records; a failed sweep is logged and left to the next cycle. */
  private SweepResult sweep() {
    try {
      return activities.sweepStrandedRecords(new SweepRequest(Workflow.getInfo().getWorkflowId()));
    } catch (ActivityFailure e) {
      if (Failures.isCancellation(e)) {
        throw e;
      }
      log.warn("The sweep of stranded records failed: {}", Failures.message(e));
      return null;
    }
  }

  private MvoDeletionResult deleteDueMvos(HousekeepingInput input) {
    // Fixed here so that every retry of the activity writes to the same run record.
    String runRecordId = Workflow.randomUUID().toString();
    try {
      return activities.deleteDueMvos(
          new MvoDeletionRequest(
              runRecordId,
              Initiator.orSystem(input.initiator()),
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
