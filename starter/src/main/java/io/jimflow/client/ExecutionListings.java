package io.jimflow.client;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.common.TaskQueues;
import io.jimflow.runrecords.RunRecordsQuestion;
import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import io.temporal.common.SearchAttributes;
import java.util.List;

/**
 * Listings of schedule executions for {@link ExecutionClient}: from Temporal's visibility store
 * and, when a worker can read the store, from the store's execution history.
 */
final class ExecutionListings {

  private final TemporalConnection connection;
  private final WorkflowClient workflows;
  private final RunRecordClient records;

  ExecutionListings(TemporalConnection connection, RunRecordClient records) {
    this.connection = connection;
    this.workflows = connection.workflows();
    this.records = records;
  }

  /** Executions with a step waiting in AwaitingApproval, newest first. */
  List<ExecutionSummary> awaitingApproval(String scheduleId, int limit) {
    return workflows
        .listExecutions(ExecutionQueries.awaitingApproval(scheduleId))
        .limit(Math.max(limit, 1))
        .map(ExecutionListings::summary)
        .toList();
  }

  /**
   * Executions Temporal has, newest first as the visibility store returns them.
   *
   * @param scheduleId only this schedule's; all if null
   * @param status only in this status; all if null
   */
  List<ExecutionSummary> list(String scheduleId, ExecutionStatus status, int limit) {
    return workflows
        .listExecutions(ExecutionQueries.list(scheduleId, status))
        .limit(Math.max(limit, 1))
        .map(ExecutionListings::summary)
        .toList();
  }

  /**
   * Executions newest first from Temporal and, when a worker can read the store, from the execution
   * history too: so the listing still has executions Temporal's retention dropped.
   */
  ExecutionListing listWithHistory(String scheduleId, ExecutionStatus status, int limit) {
    List<ExecutionSummary> temporal = list(scheduleId, status, limit);
    if (!canReadStore()) {
      return new ExecutionListing(temporal, false);
    }
    List<ExecutionRecord> stored =
        records
            .ask(
                RunRecordsQuestion.executions(
                    scheduleId, status == null ? null : status.name(), limit))
            .executions();
    return new ExecutionListing(ExecutionHistories.merge(temporal, stored, limit), true);
  }

  /**
   * The execution as the store's execution history has it, with the steps it recorded.
   *
   * @throws NotFoundException when the store has no record of it, or no worker can read the store
   */
  ExecutionRecord stored(String workflowId) {
    if (!canReadStore()) {
      throw new NotFoundException(
          "no execution with id "
              + workflowId
              + " in Temporal, and no worker on "
              + TaskQueues.MAINTENANCE
              + " to look it up in the store's execution history");
    }
    return records.ask(RunRecordsQuestion.execution(workflowId)).executions().stream()
        .findFirst()
        .orElseThrow(
            () ->
                new NotFoundException(
                    "no execution with id "
                        + workflowId
                        + " (neither in Temporal nor in the store's execution history)"));
  }

  /** Whether a worker polls the maintenance task queue, whose workflows read the store. */
  private boolean canReadStore() {
    try {
      return connection.hasWorker(TaskQueues.MAINTENANCE);
    } catch (StatusRuntimeException e) {
      // Temporal's in-memory test server cannot describe task queues.
      if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
        return false;
      }
      throw e;
    }
  }

  /** An execution as Temporal's visibility lists it. */
  static ExecutionSummary summary(WorkflowExecutionMetadata m) {
    SearchAttributes attributes = m.getTypedSearchAttributes();
    return new ExecutionSummary(
        m.getExecution().getWorkflowId(),
        m.getExecution().getRunId(),
        attributes.get(JimflowSearchAttributes.SCHEDULE_ID),
        ExecutionQueries.status(m.getStatus(), attributes.get(JimflowSearchAttributes.STATUS)),
        m.getStartTime(),
        m.getCloseTime());
  }
}
