package io.jimflow.client;

import io.jimflow.common.TaskQueues;
import io.jimflow.runrecords.RunRecordView;
import io.jimflow.runrecords.RunRecordsAnswer;
import io.jimflow.runrecords.RunRecordsQuestion;
import io.jimflow.runrecords.RunRecordsQuestion.Kind;
import io.jimflow.runrecords.RunRecordsWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TimeoutFailure;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * Run records (JIM's audit "activities") and the execution history, read from the store: the store
 * is the worker's, so each question is a short workflow on the maintenance task queue whose
 * activity reads the records.
 */
public final class RunRecordClient {

  private final WorkflowClient workflows;

  public RunRecordClient(WorkflowClient workflows) {
    this.workflows = workflows;
  }

  /**
   * Run records newest first.
   *
   * @param connectedSystem only this system's (its id); all if null
   * @param status only in this status (InProgress, Complete, …, FailedWithError); all if null
   */
  public List<RunRecordView> list(String connectedSystem, String status, int limit) {
    return ask(new RunRecordsQuestion(Kind.List, connectedSystem, status, null, false, limit))
        .records();
  }

  /**
   * One run record with its first {@code items} run items, errors first.
   *
   * @throws NotFoundException when no run record has this id
   */
  public RunRecordsAnswer show(String runRecordId, int items) {
    return found(
        runRecordId, ask(new RunRecordsQuestion(Kind.Show, null, null, runRecordId, false, items)));
  }

  /**
   * A run record's run items in the order written.
   *
   * @throws NotFoundException when no run record has this id
   */
  public RunRecordsAnswer items(String runRecordId, boolean errorsOnly, int limit) {
    return found(
        runRecordId,
        ask(new RunRecordsQuestion(Kind.Items, null, null, runRecordId, errorsOnly, limit)));
  }

  /**
   * Asks a worker any question about the records.
   *
   * @throws JimflowConnectionException when no worker answers within a minute
   * @throws IllegalArgumentException when the worker refuses the question (the message says why)
   */
  public RunRecordsAnswer ask(RunRecordsQuestion question) {
    RunRecordsWorkflow workflow =
        workflows.newWorkflowStub(
            RunRecordsWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId("jimflow-runs/" + UUID.randomUUID().toString().substring(0, 8))
                .setTaskQueue(TaskQueues.MAINTENANCE)
                .setWorkflowExecutionTimeout(Duration.ofMinutes(1))
                .setStaticSummary("Read run records: " + question.kind())
                .build());
    try {
      return workflow.run(question);
    } catch (WorkflowFailedException e) {
      Throwable cause = e.getCause();
      while (cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof TimeoutFailure) {
        throw new JimflowConnectionException(
            "no worker answered on "
                + TaskQueues.MAINTENANCE
                + " within a minute; start one with ./jimflow dev",
            e);
      }
      throw new IllegalArgumentException(
          cause instanceof ApplicationFailure app ? app.getOriginalMessage() : cause.getMessage());
    }
  }

  private static RunRecordsAnswer found(String runRecordId, RunRecordsAnswer answer) {
    if (answer.records().isEmpty()) {
      throw new NotFoundException("no run record with id " + runRecordId);
    }
    return answer;
  }
}
