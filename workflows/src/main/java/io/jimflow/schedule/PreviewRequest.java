package io.jimflow.schedule;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;

/**
 * A preview of a schedule: its definition (whose import and synchronisation steps run in preview
 * mode) and who asked.
 */
public record PreviewRequest(ScheduleDefinition definition, Initiator initiator) {

  /** The most steps a previewed schedule may have. */
  public static final int MAX_STEPS = 1_000;
}
