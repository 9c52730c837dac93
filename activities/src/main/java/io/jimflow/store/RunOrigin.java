package io.jimflow.store;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;

/**
 * Who started a run, and from which step of which schedule execution; each part null where there is
 * none (a run started outside a schedule has no execution).
 *
 * @param initiatorType the initiator's type ({@code User}, {@code Schedule}, ...)
 */
public record RunOrigin(
    String initiatorType,
    String initiatorId,
    String initiatorName,
    String executionId,
    String scheduleId,
    Integer stepIndex,
    String stepName) {

  /** A run that this initiator (none: null) started from a step of a schedule execution. */
  public static RunOrigin of(
      Initiator initiator,
      String executionId,
      String scheduleId,
      Integer stepIndex,
      String stepName) {
    return new RunOrigin(
        initiator == null ? null : initiator.type().name(),
        initiator == null ? null : initiator.id(),
        initiator == null ? null : initiator.name(),
        executionId,
        scheduleId,
        stepIndex,
        stepName);
  }
}
