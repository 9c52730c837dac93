package io.jimflow.maintenance;

import io.jimflow.maintenance.MaintenanceActivities.FinishRunRequest;
import io.jimflow.maintenance.MaintenanceActivities.OpenRunRequest;
import io.jimflow.maintenance.MaintenanceActivities.PurgeRequest;
import io.jimflow.maintenance.MaintenanceActivities.PurgeResult;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** See {@link HistoryRetentionWorkflow}. */
public class HistoryRetentionWorkflowImpl implements HistoryRetentionWorkflow {

  private final MaintenanceActivities purge =
      Workflow.newActivityStub(MaintenanceActivities.class, MaintenanceOptions.LONG);
  private final MaintenanceActivities records =
      Workflow.newActivityStub(MaintenanceActivities.class, MaintenanceOptions.SHORT);

  @Override
  public HistoryRetentionResult run(HistoryRetentionInput input) {
    String runRecordId = Workflow.randomUUID().toString();
    // One instant for every kind and every retry: the cutoffs do not move while the run goes on.
    Instant asOf = Instant.ofEpochMilli(Workflow.currentTimeMillis());
    records.openRun(
        new OpenRunRequest(
            runRecordId,
            MaintenanceKind.HistoryRetention,
            null,
            Initiator.orSystem(input.initiator()),
            Workflow.getInfo().getWorkflowId()));
    Map<String, Long> totals = new LinkedHashMap<>();
    List<String> errors = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    try {
      for (HistoryKind kind : HistoryKind.values()) {
        try {
          PurgeResult result =
              purge.purgeHistory(
                  new PurgeRequest(kind, asOf, input.overrides(), input.batchSize()));
          totals.put(kind.totalName(), result.deleted());
          if (result.note() != null) {
            notes.add(result.note());
          }
          if (kind == HistoryKind.RunRecords) {
            totals.put("runItemsDeleted", result.itemsDeleted());
          }
        } catch (ActivityFailure e) {
          if (Failures.isCancellation(e)) {
            throw e;
          }
          errors.add(kind + ": " + Failures.message(e));
        }
      }
    } catch (ActivityFailure | CanceledFailure e) {
      // Only cancellation gets here: other failures were collected per kind above.
      finish(runRecordId, "Cancelled", "cancelled", totals);
      throw e;
    }
    String status =
        errors.isEmpty() ? "Complete" : totals.isEmpty() ? "FailedWithError" : "CompleteWithError";
    List<String> said = new ArrayList<>(errors);
    said.addAll(notes);
    finish(runRecordId, status, said.isEmpty() ? null : String.join("; ", said), totals);
    HistoryRetentionResult result =
        new HistoryRetentionResult(runRecordId, status, totals, errors, notes);
    if (totals.isEmpty()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "history retention failed: " + String.join("; ", errors),
          "HistoryRetentionFailed",
          result);
    }
    return result;
  }

  private void finish(String runRecordId, String status, String message, Map<String, Long> totals) {
    Workflow.newDetachedCancellationScope(
            () -> records.finishRun(new FinishRunRequest(runRecordId, status, message, totals)))
        .run();
  }
}
