package io.jimflow.maintenance;

import io.jimflow.maintenance.MaintenanceActivities.FinishRunRequest;
import io.jimflow.maintenance.MaintenanceActivities.OpenRunRequest;
import io.jimflow.maintenance.MaintenanceActivities.SystemOperationRequest;
import io.jimflow.resource.ResourceLocks;
import io.jimflow.resource.Resources;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The frame both connected-system tasks share: take the system's resources (as a run-profile step
 * does, so that no run of the system overlaps the task), open the run record, hold the system, do
 * the work, then always release the system (back to Active) and end the record, from a detached
 * scope so that cancellation cannot skip it.
 */
final class SystemTask {

  private final MaintenanceActivities records =
      Workflow.newActivityStub(MaintenanceActivities.class, MaintenanceOptions.SHORT);

  /** The work: gets the run record id and adds to the totals. */
  interface Work extends BiConsumer<String, Map<String, Long>> {}

  /**
   * Runs {@code work} on the system of {@code input}, holding the system (and the metaverse if
   * {@code touchesMetaverse}) through {@code locks} from executions that began with resource
   * exclusion on.
   */
  SystemMaintenanceResult run(
      MaintenanceKind kind,
      SystemOperation operation,
      SystemMaintenanceInput input,
      ResourceLocks locks,
      boolean touchesMetaverse,
      Work work) {
    String system = input.connectedSystem();
    if (system == null || system.isBlank()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "a connected system id is needed", "BadInput");
    }
    ResourceLocks.Held held = null;
    if (Workflow.getVersion(Resources.EXCLUSION_CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1) {
      List<String> resources = new ArrayList<>(locks.resourcesOf(system, null));
      if (touchesMetaverse) {
        resources.add(Resources.METAVERSE);
      }
      held = locks.acquire(resources, kind.name(), kind + " of " + system, waiting -> {});
    }
    try {
      return runHolding(kind, operation, input, work);
    } finally {
      locks.release(held);
    }
  }

  private SystemMaintenanceResult runHolding(
      MaintenanceKind kind, SystemOperation operation, SystemMaintenanceInput input, Work work) {
    String system = input.connectedSystem();
    String workflowId = Workflow.getInfo().getWorkflowId();
    String runRecordId = Workflow.randomUUID().toString();
    Initiator initiator = Initiator.orSystem(input.initiator());
    records.openRun(new OpenRunRequest(runRecordId, kind, system, initiator, workflowId));
    SystemOperationRequest hold = new SystemOperationRequest(system, operation, workflowId);
    Map<String, Long> totals = new LinkedHashMap<>();
    try {
      records.beginSystemOperation(hold);
      work.accept(runRecordId, totals);
    } catch (ActivityFailure | CanceledFailure e) {
      String status = Failures.isCancellation(e) ? "Cancelled" : "FailedWithError";
      String message = Failures.message(e);
      Workflow.newDetachedCancellationScope(
              () -> {
                records.endSystemOperation(hold);
                records.finishRun(new FinishRunRequest(runRecordId, status, message, totals));
              })
          .run();
      if (Failures.isCancellation(e)) {
        throw e;
      }
      throw ApplicationFailure.newNonRetryableFailure(
          kind
              + " of connected system '"
              + system
              + "' failed: "
              + message
              + "; the system is Active again and the task can be retried",
          kind + "Failed",
          new SystemMaintenanceResult(runRecordId, system, totals));
    }
    Workflow.newDetachedCancellationScope(
            () -> {
              records.endSystemOperation(hold);
              records.finishRun(new FinishRunRequest(runRecordId, "Complete", null, totals));
            })
        .run();
    return new SystemMaintenanceResult(runRecordId, system, totals);
  }
}
