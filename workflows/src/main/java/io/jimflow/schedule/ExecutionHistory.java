package io.jimflow.schedule;

import io.jimflow.schedule.ExecutionRecordActivities.ExecutionRecordWrite;
import io.jimflow.schedule.StepGroups.PlannedStep;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;

/**
 * Keeps an execution's record in the store current: once when it starts, when a later step group
 * starts (with the step records that ended since the last write) and once when it ends (with the
 * remaining and the skipped steps' records). Executions begun before {@link GroupPublisher} write
 * before every later group (n + 1 writes for n groups); newer ones at most once a second while
 * groups start, plus the first and the last write.
 *
 * <p>The writes are activities in detached scopes, so a cancelled execution still records how it
 * ended, and they are not awaited until the end, so they never hold up the next group. A write that
 * fails after its retries only costs the store's copy: the execution goes on (a warning in the
 * worker's log; the sweeper later finalizes a record left InProgress).
 */
final class ExecutionHistory {

  /** The {@code Workflow.getVersion} change that introduced these writes. */
  static final String CHANGE_ID = "execution-history";

  /** Steps per write: keeps one activity's input well below Temporal's payload limit. */
  static final int STEPS_PER_WRITE = 100;

  /** A step's message is cut to this length in a write (the step's own result holds all of it). */
  static final int MESSAGE_LIMIT = 2000;

  private static final Logger log = Workflow.getLogger(ExecutionHistory.class);

  private static final ActivityOptions OPTIONS =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          // About two minutes of retries: long enough for a store restart, short enough that an
          // execution whose store is gone still ends.
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(1))
                  .setBackoffCoefficient(2)
                  .setMaximumInterval(Duration.ofSeconds(30))
                  .setMaximumAttempts(6)
                  .build())
          .setSummary("record execution history")
          .build();

  private final ExecutionRecordActivities store =
      Workflow.newActivityStub(ExecutionRecordActivities.class, OPTIONS);
  private final List<Promise<Void>> writes = new ArrayList<>();
  private final Set<Integer> recorded = new HashSet<>();
  private final Map<Integer, String> runRecords = new HashMap<>();
  private final StepGroups plan;
  private int revision;

  ExecutionHistory(StepGroups plan) {
    this.plan = plan;
  }

  /** Remembers the run record a step's result named. */
  void runRecord(int position, String runRecordId) {
    if (runRecordId != null) {
      runRecords.put(position, runRecordId);
    }
  }

  /**
   * Writes the execution as {@code execution} says, with the steps of the board that have ended and
   * were not written yet.
   */
  void write(ExecutionRecord execution, StepBoard board) {
    List<StepRecord> steps = new ArrayList<>();
    for (StepGroups.StepGroup group : plan.groups()) {
      for (PlannedStep planned : group.steps()) {
        StepOutcome outcome = board.get(planned.position());
        if (outcome.status().isFinal() && recorded.add(planned.position())) {
          steps.add(record(planned, outcome));
        }
      }
    }
    int from = 0;
    do {
      List<StepRecord> chunk = steps.subList(from, Math.min(steps.size(), from + STEPS_PER_WRITE));
      ExecutionRecordWrite write = new ExecutionRecordWrite(++revision, execution.withSteps(chunk));
      Workflow.newDetachedCancellationScope(
              () -> writes.add(Async.procedure(store::recordExecution, write)))
          .run();
      from += STEPS_PER_WRITE;
    } while (from < steps.size());
  }

  /** Waits for every write, even when the execution was cancelled. */
  void awaitWrites() {
    Workflow.newDetachedCancellationScope(
            () -> {
              for (Promise<Void> write : writes) {
                try {
                  write.get();
                } catch (ActivityFailure e) {
                  log.warn("Could not record the execution in the store: {}", e.getMessage());
                }
              }
            })
        .run();
    writes.clear();
  }

  private StepRecord record(PlannedStep planned, StepOutcome outcome) {
    StepDefinition step = planned.definition();
    String type;
    String target;
    if (step.runProfile() != null) {
      type = "RunProfile";
      target = step.runProfile().connectedSystem() + " / " + step.runProfile().runProfile();
    } else if (step.sqlScript() != null) {
      type = "SqlScript";
      target = step.sqlScript().connection() + " / " + step.sqlScript().path();
    } else {
      type = "Executable";
      target = step.executable() == null ? null : step.executable().path();
    }
    String message = outcome.message();
    if (message != null && message.length() > MESSAGE_LIMIT) {
      message = message.substring(0, MESSAGE_LIMIT);
    }
    return new StepRecord(
        planned.position(),
        outcome.index(),
        outcome.name(),
        type,
        target,
        outcome.status(),
        outcome.attempts(),
        outcome.startedAt(),
        outcome.endedAt(),
        message,
        runRecords.get(planned.position()));
  }
}
