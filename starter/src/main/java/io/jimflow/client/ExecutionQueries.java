package io.jimflow.client;

import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * Visibility queries over schedule executions and the reading of their status. Temporal's own
 * status is authoritative once a run has closed; jimflow's {@code JimflowStatus} search attribute
 * adds what Temporal cannot tell (CompleteWithError is a Completed workflow).
 */
public final class ExecutionQueries {

  private ExecutionQueries() {}

  /** The visibility query listing executions, optionally of one schedule and in one status. */
  public static String list(String scheduleId, ExecutionStatus status) {
    List<String> clauses = new ArrayList<>();
    clauses.add("WorkflowType = " + literal(ScheduleExecutionWorkflow.TYPE));
    if (scheduleId != null) {
      clauses.add(JimflowSearchAttributes.SCHEDULE_ID.getName() + " = " + literal(scheduleId));
    }
    if (status != null) {
      clauses.add(statusClause(status));
    }
    return String.join(" AND ", clauses);
  }

  /** The visibility query listing executions with a step waiting in AwaitingApproval. */
  public static String awaitingApproval(String scheduleId) {
    return list(scheduleId, ExecutionStatus.InProgress)
        + " AND "
        + JimflowSearchAttributes.AWAITING_APPROVAL.getName()
        + " = true";
  }

  /** The query finding an open execution of a schedule. */
  public static String running(String scheduleId) {
    return list(scheduleId, ExecutionStatus.InProgress);
  }

  /** jimflow's status of a run from Temporal's status and the {@code JimflowStatus} attribute. */
  public static ExecutionStatus status(WorkflowExecutionStatus temporal, String jimflowStatus) {
    return switch (temporal) {
      case WORKFLOW_EXECUTION_STATUS_RUNNING, WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW ->
          ExecutionStatus.InProgress;
      case WORKFLOW_EXECUTION_STATUS_COMPLETED ->
          ExecutionStatus.CompleteWithError.name().equals(jimflowStatus)
              ? ExecutionStatus.CompleteWithError
              : ExecutionStatus.Complete;
      case WORKFLOW_EXECUTION_STATUS_CANCELED -> ExecutionStatus.Cancelled;
      default -> ExecutionStatus.Failed;
    };
  }

  private static String statusClause(ExecutionStatus status) {
    String jimflow = JimflowSearchAttributes.STATUS.getName();
    return switch (status) {
      case InProgress -> "ExecutionStatus = 'Running'";
      case Complete -> "ExecutionStatus = 'Completed' AND " + jimflow + " != 'CompleteWithError'";
      case CompleteWithError ->
          "ExecutionStatus = 'Completed' AND " + jimflow + " = 'CompleteWithError'";
      case Failed -> "ExecutionStatus IN ('Failed', 'Terminated', 'TimedOut')";
      case Cancelled -> "ExecutionStatus = 'Canceled'";
    };
  }

  static String literal(String value) {
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
