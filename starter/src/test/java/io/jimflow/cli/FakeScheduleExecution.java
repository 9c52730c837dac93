package io.jimflow.cli;

import io.jimflow.schedule.ApprovalDecision;
import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleExecutionInput;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Stands in for the real workflow in CLI tests, honouring its contract as the client sees it (type
 * name, {@code progress} query, result, failure details): steps named "fail…" fail,
 * continueOnFailure decides whether that stops the run (Failed with the result as failure details)
 * or is tolerated (CompleteWithError); a step named "hang" waits until the run is cancelled.
 */
public class FakeScheduleExecution implements ScheduleExecutionContract {

  private ScheduleExecutionInput input;
  private final List<StepOutcome> steps = new ArrayList<>();
  private ExecutionStatus status = ExecutionStatus.InProgress;
  private ApprovalDecision decision;

  @Override
  public void validateApproval(ApprovalDecision decision) {
    boolean awaiting =
        steps.stream()
            .anyMatch(
                s -> s.status() == StepStatus.AwaitingApproval && s.name().equals(decision.step()));
    String problem =
        decision
            .problem()
            .orElse(awaiting ? null : "no step named '" + decision.step() + "' awaits approval");
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
  }

  @Override
  public String decideApproval(ApprovalDecision decision) {
    this.decision = decision;
    return "step '" + decision.step() + "' " + decision.describe();
  }

  private static StepOutcome withMessage(StepOutcome s, String message) {
    return new StepOutcome(
        s.index(),
        s.name(),
        s.status(),
        s.attempts(),
        s.startedAt(),
        s.endedAt(),
        message,
        s.stats());
  }

  private String message;
  private int currentGroup;

  @Override
  public ExecutionResult run(ScheduleExecutionInput input) {
    this.input = input;
    for (StepDefinition step : input.definition().steps()) {
      steps.add(
          new StepOutcome(
              step.index(), step.name(), StepStatus.Waiting, 0, null, null, null, null));
    }
    Instant started = Instant.ofEpochMilli(Workflow.currentTimeMillis());
    boolean tolerated = false;
    try {
      for (int i = 0; i < steps.size(); i++) {
        StepDefinition step = input.definition().steps().get(i);
        currentGroup = i + 1;
        set(i, StepStatus.Running, 1, null);
        if (step.name().equals("hang")) {
          Workflow.await(() -> false);
        }
        if (step.name().equals("held")) {
          set(
              i,
              StepStatus.AwaitingApproval,
              1,
              "held: the export would delete 600 of 1000\n  - Update E1: title 'Engineer' ->"
                  + " 'Architect'");
          Workflow.await(() -> decision != null);
          set(i, decision.approve() ? StepStatus.Complete : StepStatus.FailedWithError, 1, null);
          steps.set(i, withMessage(steps.get(i), decision.describe()));
          continue;
        }
        if (step.name().startsWith("fail")) {
          set(i, StepStatus.FailedWithError, 2, "exit code 3: it broke");
          if (!Boolean.TRUE.equals(step.continueOnFailure())) {
            for (int j = i + 1; j < steps.size(); j++) {
              set(j, StepStatus.Skipped, 0, null);
            }
            status = ExecutionStatus.Failed;
            message = "step '" + step.name() + "' failed: exit code 3: it broke";
            throw ApplicationFailure.newNonRetryableFailure(
                message, "ScheduleExecutionFailed", result(started));
          }
          tolerated = true;
        } else {
          set(i, StepStatus.Complete, 1, "done");
        }
      }
    } catch (CanceledFailure e) {
      for (int j = 0; j < steps.size(); j++) {
        StepOutcome s = steps.get(j);
        set(
            j,
            s.status() == StepStatus.Running
                ? StepStatus.Cancelled
                : s.status().isFinal() ? s.status() : StepStatus.Skipped,
            s.attempts(),
            s.message());
      }
      status = ExecutionStatus.Cancelled;
      message = "cancelled";
      throw e;
    }
    status = tolerated ? ExecutionStatus.CompleteWithError : ExecutionStatus.Complete;
    return result(started);
  }

  @Override
  public ExecutionProgress progress() {
    return new ExecutionProgress(
        input.definition().id(),
        input.definition().name(),
        status,
        currentGroup,
        steps.size(),
        message,
        steps);
  }

  private ExecutionResult result(Instant started) {
    return new ExecutionResult(
        input.definition().id(),
        input.definition().name(),
        status,
        message,
        started,
        Instant.ofEpochMilli(Workflow.currentTimeMillis()),
        steps);
  }

  private void set(int i, StepStatus status, int attempts, String message) {
    StepOutcome s = steps.get(i);
    steps.set(i, new StepOutcome(s.index(), s.name(), status, attempts, null, null, message, null));
  }
}
