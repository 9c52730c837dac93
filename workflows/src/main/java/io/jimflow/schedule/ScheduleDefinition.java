package io.jimflow.schedule;

import java.time.Duration;
import java.util.List;

/**
 * One schedule as the user defined it: an immutable snapshot that a run carries as its input, so
 * that editing the file never changes an execution already under way.
 *
 * @param trigger when Temporal should start it; {@code null} means manual runs only
 * @param onStepFailure the policy of steps that do not set {@code continueOnFailure}; STOP if
 *     absent
 * @param overlap what a scheduled start does while an earlier one still runs; SKIP if absent
 * @param catchupWindow how late a missed scheduled start may still run (e.g. after an outage);
 *     server default if absent
 * @param notificationUrl the webhook this schedule's notifications go to instead of the worker's (a
 *     URL or a {@code ${secret:NAME}}); null for the worker's. Workers post only to URLs their
 *     configuration allows.
 */
public record ScheduleDefinition(
    String id,
    String name,
    String description,
    boolean enabled,
    Trigger trigger,
    FailurePolicy onStepFailure,
    OverlapPolicy overlap,
    Duration catchupWindow,
    List<StepDefinition> steps,
    String notificationUrl) {

  /** A definition whose notifications go to the worker's webhook. */
  public ScheduleDefinition(
      String id,
      String name,
      String description,
      boolean enabled,
      Trigger trigger,
      FailurePolicy onStepFailure,
      OverlapPolicy overlap,
      Duration catchupWindow,
      List<StepDefinition> steps) {
    this(
        id,
        name,
        description,
        enabled,
        trigger,
        onStepFailure,
        overlap,
        catchupWindow,
        steps,
        null);
  }

  public ScheduleDefinition {
    steps = steps == null ? List.of() : List.copyOf(steps);
    onStepFailure = onStepFailure == null ? FailurePolicy.STOP : onStepFailure;
    overlap = overlap == null ? OverlapPolicy.SKIP : overlap;
  }

  /** A schedule's default reaction to a failed step. */
  public enum FailurePolicy {
    STOP,
    CONTINUE
  }

  /** What a scheduled start does while an earlier execution of the same schedule still runs. */
  public enum OverlapPolicy {
    SKIP,
    BUFFER_ONE,
    ALLOW_ALL,
    CANCEL_OTHER
  }
}
