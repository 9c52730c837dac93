package io.jimflow.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.ExecutionStatus;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import org.junit.jupiter.api.Test;

class ExecutionQueriesTest {

  @Test
  void listingAllExecutionsFiltersByWorkflowTypeOnly() {
    assertThat(ExecutionQueries.list(null, null)).isEqualTo("WorkflowType = 'ScheduleExecution'");
  }

  @Test
  void listingByScheduleAndStatusCombinesTheSearchAttributes() {
    assertThat(ExecutionQueries.list("nightly", ExecutionStatus.CompleteWithError))
        .isEqualTo(
            "WorkflowType = 'ScheduleExecution' AND JimflowScheduleId = 'nightly'"
                + " AND ExecutionStatus = 'Completed' AND JimflowStatus = 'CompleteWithError'");
  }

  @Test
  void executionsAwaitingApprovalAreRunningOnesWithTheBoolSearchAttributeSet() {
    assertThat(ExecutionQueries.awaitingApproval(null))
        .isEqualTo(
            "WorkflowType = 'ScheduleExecution' AND ExecutionStatus = 'Running'"
                + " AND JimflowAwaitingApproval = true");
  }

  @Test
  void anOpenExecutionIsFoundByTemporalsRunningStatus() {
    assertThat(ExecutionQueries.running("nightly"))
        .isEqualTo(
            "WorkflowType = 'ScheduleExecution' AND JimflowScheduleId = 'nightly'"
                + " AND ExecutionStatus = 'Running'");
  }

  @Test
  void failedIncludesRunsThatWereTerminatedOrTimedOut() {
    assertThat(ExecutionQueries.list(null, ExecutionStatus.Failed))
        .endsWith("ExecutionStatus IN ('Failed', 'Terminated', 'TimedOut')");
  }

  @Test
  void quotesInValuesCannotBreakOutOfTheQuery() {
    assertThat(ExecutionQueries.literal("a'b")).isEqualTo("'a\\'b'");
  }

  @Test
  void theStatusOfAClosedRunFollowsTemporalAndTheJimflowStatusAttribute() {
    assertThat(
            ExecutionQueries.status(
                WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING, "InProgress"))
        .isEqualTo(ExecutionStatus.InProgress);
    assertThat(
            ExecutionQueries.status(
                WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED, "Complete"))
        .isEqualTo(ExecutionStatus.Complete);
    assertThat(
            ExecutionQueries.status(
                WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED, "CompleteWithError"))
        .isEqualTo(ExecutionStatus.CompleteWithError);
    // A run that completed before the attribute was final still reads as complete.
    assertThat(
            ExecutionQueries.status(
                WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED, "InProgress"))
        .isEqualTo(ExecutionStatus.Complete);
    assertThat(
            ExecutionQueries.status(
                WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED, "InProgress"))
        .isEqualTo(ExecutionStatus.Failed);
    assertThat(
            ExecutionQueries.status(
                WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED, null))
        .isEqualTo(ExecutionStatus.Failed);
    assertThat(
            ExecutionQueries.status(
                WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CANCELED, "InProgress"))
        .isEqualTo(ExecutionStatus.Cancelled);
  }
}
