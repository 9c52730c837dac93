package io.jimflow.schedule;

import io.jimflow.schedule.ScheduleDefinition.FailurePolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The ContinueOnFailure rules of JIM: what a failed step means for its execution. */
public final class FailurePolicies {

  /**
   * Whether the execution goes on after this step failed: the step's own {@code continueOnFailure}
   * when given, else the schedule's {@code onStepFailure}.
   */
  public static boolean continuesOnFailure(StepDefinition step, FailurePolicy scheduleDefault) {
    if (step.continueOnFailure() != null) {
      return step.continueOnFailure();
    }
    return scheduleDefault == FailurePolicy.CONTINUE;
  }

  /**
   * Decides after a group: stop when any failed step's policy is stop.
   *
   * @param outcomes every step's outcome by position; each step of the group must be there
   */
  public static GroupVerdict afterGroup(
      StepGroups.StepGroup group,
      Map<Integer, StepOutcome> outcomes,
      FailurePolicy scheduleDefault) {
    return afterGroup(group, outcomes, scheduleDefault, true);
  }

  /**
   * Decides after a group as {@link #afterGroup(StepGroups.StepGroup, Map, FailurePolicy)} does,
   * but for steps that ended CompleteWithError when {@code completeWithErrorStops} is false: such a
   * step handled every object but a few, each an error item of its run, and the steps after it
   * handle the others; it is tolerated whatever its policy (the execution still ends
   * CompleteWithError), so one bad object never stops a schedule.
   */
  public static GroupVerdict afterGroup(
      StepGroups.StepGroup group,
      Map<Integer, StepOutcome> outcomes,
      FailurePolicy scheduleDefault,
      boolean completeWithErrorStops) {
    List<StepOutcome> stopping = new ArrayList<>();
    List<StepOutcome> tolerated = new ArrayList<>();
    for (StepGroups.PlannedStep planned : group.steps()) {
      StepOutcome outcome = outcomes.get(planned.position());
      if (outcome == null || !outcome.status().isFailure()) {
        continue;
      }
      if (continuesOnFailure(planned.definition(), scheduleDefault)
          || (!completeWithErrorStops && outcome.status() == StepStatus.CompleteWithError)) {
        tolerated.add(outcome);
      } else {
        stopping.add(outcome);
      }
    }
    return new GroupVerdict(!stopping.isEmpty(), stopping, tolerated);
  }

  /**
   * The final status of an execution: Cancelled when it was cancelled, Failed when a group stopped
   * it, CompleteWithError when failures were tolerated, else Complete.
   */
  public static ExecutionStatus finalStatus(
      boolean cancelled, boolean stopped, List<StepOutcome> steps) {
    if (cancelled) {
      return ExecutionStatus.Cancelled;
    }
    if (stopped) {
      return ExecutionStatus.Failed;
    }
    return steps.stream().anyMatch(s -> s.status().isFailure())
        ? ExecutionStatus.CompleteWithError
        : ExecutionStatus.Complete;
  }

  private FailurePolicies() {}
}
