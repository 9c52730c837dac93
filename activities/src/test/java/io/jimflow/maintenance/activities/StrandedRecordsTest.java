package io.jimflow.maintenance.activities;

import static io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CANCELED;
import static io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED;
import static io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW;
import static io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED;
import static io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
import static io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED;
import static io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TIMED_OUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.maintenance.activities.ExecutionStates.ExecutionState;
import io.jimflow.maintenance.activities.StrandedRecords.ExecutionVerdict;
import io.jimflow.maintenance.activities.StrandedRecords.Owner;
import io.jimflow.maintenance.activities.StrandedRecords.RunVerdict;
import io.jimflow.schedule.ExecutionStatus;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The sweeper's verdicts, without Temporal or a store. */
class StrandedRecordsTest {

  private static Optional<ExecutionState> state(WorkflowExecutionStatus status) {
    return Optional.of(new ExecutionState(status, null));
  }

  static Stream<Arguments> runVerdicts() {
    return Stream.of(
        Arguments.of(state(WORKFLOW_EXECUTION_STATUS_RUNNING), null, null),
        Arguments.of(state(WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW), null, null),
        Arguments.of(state(WORKFLOW_EXECUTION_STATUS_CANCELED), "Cancelled", "was cancelled"),
        Arguments.of(state(WORKFLOW_EXECUTION_STATUS_TERMINATED), "Cancelled", "was terminated"),
        Arguments.of(state(WORKFLOW_EXECUTION_STATUS_TIMED_OUT), "FailedWithError", "timed out"),
        Arguments.of(state(WORKFLOW_EXECUTION_STATUS_FAILED), "FailedWithError", "failed"),
        Arguments.of(state(WORKFLOW_EXECUTION_STATUS_COMPLETED), "FailedWithError", "completed"),
        Arguments.of(
            Optional.empty(),
            "FailedWithError",
            "is unknown to Temporal (never started, or deleted)"));
  }

  @ParameterizedTest
  @MethodSource("runVerdicts")
  void aRunRecordEndsAsItsExecutionDid(Optional<ExecutionState> state, String status, String how) {
    Optional<RunVerdict> verdict = StrandedRecords.forRun(new Owner("nightly/1", null), state);

    if (status == null) {
      assertThat(verdict).isEmpty();
    } else {
      assertThat(verdict)
          .contains(
              new RunVerdict(
                  status, "stranded: execution nightly/1 " + how + " before the record was ended"));
    }
  }

  static Stream<Arguments> executionVerdicts() {
    return Stream.of(
        Arguments.of(WORKFLOW_EXECUTION_STATUS_RUNNING, null, null),
        Arguments.of(WORKFLOW_EXECUTION_STATUS_COMPLETED, null, ExecutionStatus.Complete),
        Arguments.of(WORKFLOW_EXECUTION_STATUS_COMPLETED, "Complete", ExecutionStatus.Complete),
        Arguments.of(
            WORKFLOW_EXECUTION_STATUS_COMPLETED,
            "CompleteWithError",
            ExecutionStatus.CompleteWithError),
        Arguments.of(WORKFLOW_EXECUTION_STATUS_CANCELED, null, ExecutionStatus.Cancelled),
        Arguments.of(WORKFLOW_EXECUTION_STATUS_TERMINATED, null, ExecutionStatus.Failed),
        Arguments.of(WORKFLOW_EXECUTION_STATUS_TIMED_OUT, null, ExecutionStatus.Failed),
        Arguments.of(WORKFLOW_EXECUTION_STATUS_FAILED, null, ExecutionStatus.Failed));
  }

  @ParameterizedTest
  @MethodSource("executionVerdicts")
  void anExecutionRecordEndsWithTheStatusTemporalReports(
      WorkflowExecutionStatus temporal, String jimflowStatus, ExecutionStatus expected) {
    Optional<ExecutionVerdict> verdict =
        StrandedRecords.forExecution(
            new Owner("nightly/1", "r1"), Optional.of(new ExecutionState(temporal, jimflowStatus)));

    assertThat(verdict.map(ExecutionVerdict::status)).isEqualTo(Optional.ofNullable(expected));
    verdict.ifPresent(
        v ->
            assertThat(v.reason())
                .startsWith("execution nightly/1 (run r1) ")
                .endsWith(" before it recorded its end"));
  }

  @Test
  void anExecutionUnknownToTemporalFailed() {
    assertThat(StrandedRecords.forExecution(new Owner("nightly/1", null), Optional.empty()))
        .contains(
            new ExecutionVerdict(
                ExecutionStatus.Failed,
                "execution nightly/1 is unknown to Temporal (never started, or deleted) before it"
                    + " recorded its end"));
  }

  /**
   * Temporal as a later run of a reused workflow id sees it: {@code clear-hr} run r1 terminated,
   * run r2 (its latest) running; {@code hk} run h1 is the sweeper, h0 an earlier housekeeping run
   * that failed.
   */
  private static final Map<Owner, Optional<ExecutionState>> TEMPORAL =
      Map.of(
          new Owner("clear-hr", "r1"), state(WORKFLOW_EXECUTION_STATUS_TERMINATED),
          new Owner("clear-hr", "r2"), state(WORKFLOW_EXECUTION_STATUS_RUNNING),
          new Owner("clear-hr", null), state(WORKFLOW_EXECUTION_STATUS_RUNNING),
          new Owner("hk", "h0"), state(WORKFLOW_EXECUTION_STATUS_FAILED),
          new Owner("hk", "h1"), state(WORKFLOW_EXECUTION_STATUS_RUNNING),
          new Owner("hk", null), state(WORKFLOW_EXECUTION_STATUS_RUNNING),
          new Owner("gone", null), Optional.empty());

  private static final Owner SWEEPER = new Owner("hk", "h1");

  static Stream<Arguments> maintenanceRuns() {
    return Stream.of(
        // the terminated run's record, though a later run reuses its workflow id
        Arguments.of("clear-hr", "r1", "Cancelled"),
        Arguments.of("clear-hr", "r2", null),
        // a record written before records named their run: the workflow id's latest run
        Arguments.of("clear-hr", null, null),
        // the sweeper's own record, and one of an earlier run of its workflow id
        Arguments.of("hk", "h1", null),
        Arguments.of("hk", "h0", "FailedWithError"),
        Arguments.of("hk", null, null),
        Arguments.of("gone", null, "FailedWithError"),
        Arguments.of(null, null, null));
  }

  @ParameterizedTest
  @MethodSource("maintenanceRuns")
  void aMaintenanceRunIsJudgedByItsOwnRun(String workflowId, String runId, String status) {
    List<Owner> asked = new ArrayList<>();
    Function<Owner, Optional<ExecutionState>> temporal =
        owner -> {
          asked.add(owner);
          return TEMPORAL.get(owner);
        };

    Optional<RunVerdict> verdict =
        StrandedRecords.forMaintenanceRun(new Owner(workflowId, runId), SWEEPER, temporal);

    assertThat(verdict.map(RunVerdict::status)).isEqualTo(Optional.ofNullable(status));
    if (status != null) {
      assertThat(asked).containsExactly(new Owner(workflowId, runId));
      assertThat(verdict.get().reason())
          .startsWith(
              "stranded: execution "
                  + workflowId
                  + (runId == null ? " " : " (run " + runId + ") "));
    }
  }

  @Test
  void aHoldIsReleasedOnlyWhenItsHoldersLatestRunHasEndedAndItIsNotTheSweeper() {
    Function<Owner, Optional<ExecutionState>> temporal = TEMPORAL::get;

    assertThat(StrandedRecords.releasesHold("clear-hr", SWEEPER, temporal)).isFalse();
    assertThat(StrandedRecords.releasesHold("gone", SWEEPER, temporal)).isTrue();
    assertThat(StrandedRecords.releasesHold("hk", SWEEPER, temporal)).isFalse();
  }
}
