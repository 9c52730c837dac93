package io.jimflow.runrecords.activities;

import io.jimflow.runrecords.RunItemView;
import io.jimflow.runrecords.RunRecordActivities;
import io.jimflow.runrecords.RunRecordView;
import io.jimflow.runrecords.RunRecordsAnswer;
import io.jimflow.runrecords.RunRecordsQuestion;
import io.jimflow.runrecords.RunRecordsWorkflow;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.store.ExecutionRecords;
import io.jimflow.store.RunOrigin;
import io.jimflow.store.RunRecord;
import io.jimflow.store.RunRecords;
import io.jimflow.store.RunStatus;
import io.jimflow.store.Store;
import io.temporal.failure.ApplicationFailure;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Reads run records and their items for {@link RunRecordsWorkflow}. */
public final class RunRecordActivitiesImpl implements RunRecordActivities {

  /** Bounds a question for every schedule's latest execution, whatever limit it asks for. */
  static final int MAXIMUM_SCHEDULES = 5000;

  private final Store store;
  private final RunRecords runRecords;
  private final ExecutionRecords executions;

  public RunRecordActivitiesImpl(Store store, Clock clock) {
    this.store = store;
    this.runRecords = new RunRecords(clock);
    this.executions = new ExecutionRecords(clock);
  }

  @Override
  public RunRecordsAnswer answer(RunRecordsQuestion question) {
    int limit = Math.max(1, question.limit());
    return store.inTransaction(
        c ->
            switch (question.kind()) {
              case List -> {
                List<RunRecordView> records = new ArrayList<>();
                for (RunRecord r :
                    runRecords.list(
                        c, question.connectedSystem(), status(question.status()), limit)) {
                  records.add(view(r, runRecords.countItems(c, r.id())));
                }
                yield new RunRecordsAnswer(records, List.of());
              }
              case Show, Items -> {
                Optional<RunRecord> record = runRecords.find(c, question.runRecordId());
                if (record.isEmpty()) {
                  yield new RunRecordsAnswer(List.of(), List.of());
                }
                boolean errorsOnly =
                    question.kind() == RunRecordsQuestion.Kind.Items && question.errorsOnly();
                boolean errorsFirst = question.kind() == RunRecordsQuestion.Kind.Show;
                List<RunItemView> items =
                    runRecords.items(c, record.get().id(), errorsOnly, errorsFirst, limit).stream()
                        .map(
                            i ->
                                new RunItemView(
                                    i.sequence(),
                                    i.item().objectRef(),
                                    i.item().changeType().name(),
                                    i.item().errorType(),
                                    i.item().errorMessage()))
                        .toList();
                yield new RunRecordsAnswer(
                    List.of(view(record.get(), runRecords.countItems(c, record.get().id()))),
                    items);
              }
              case Executions ->
                  new RunRecordsAnswer(
                      List.of(),
                      List.of(),
                      executions.list(
                          c, question.scheduleId(), executionStatus(question.status()), limit));
              case LatestExecutions ->
                  new RunRecordsAnswer(
                      List.of(),
                      List.of(),
                      executions.latestPerSchedule(c, Math.min(limit, MAXIMUM_SCHEDULES)));
              case Execution ->
                  new RunRecordsAnswer(
                      List.of(),
                      List.of(),
                      executions.find(c, question.executionId()).map(List::of).orElse(List.of()));
            });
  }

  private static RunStatus status(String status) {
    if (status == null || status.isBlank()) {
      return null;
    }
    return Arrays.stream(RunStatus.values())
        .filter(s -> s.name().equalsIgnoreCase(status))
        .findFirst()
        .orElseThrow(
            () ->
                ApplicationFailure.newNonRetryableFailure(
                    "unknown run status '"
                        + status
                        + "' (one of "
                        + Arrays.toString(RunStatus.values())
                        + ")",
                    "InvalidRunRecordsQuestion"));
  }

  private static ExecutionStatus executionStatus(String status) {
    if (status == null || status.isBlank()) {
      return null;
    }
    return Arrays.stream(ExecutionStatus.values())
        .filter(s -> s.name().equalsIgnoreCase(status))
        .findFirst()
        .orElseThrow(
            () ->
                ApplicationFailure.newNonRetryableFailure(
                    "unknown execution status '"
                        + status
                        + "' (one of "
                        + Arrays.toString(ExecutionStatus.values())
                        + ")",
                    "InvalidRunRecordsQuestion"));
  }

  private static RunRecordView view(RunRecord r, long itemCount) {
    RunOrigin origin = r.origin();
    return new RunRecordView(
        r.id(),
        r.connectedSystem(),
        r.runProfile(),
        r.runType() == null ? null : r.runType().name(),
        r.status() == null ? null : r.status().name(),
        r.message(),
        origin.initiatorType(),
        origin.initiatorId(),
        origin.initiatorName(),
        origin.executionId(),
        origin.scheduleId(),
        origin.stepIndex(),
        origin.stepName(),
        r.attempts(),
        r.objectsToProcess(),
        r.objectsProcessed(),
        r.totals() == null ? null : r.totals().asMap(),
        itemCount,
        r.createdAt(),
        r.endedAt());
  }
}
