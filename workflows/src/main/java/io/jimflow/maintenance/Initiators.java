package io.jimflow.maintenance;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;

/** The initiator recorded when a maintenance workflow's input names none. */
final class Initiators {

  static final Initiator SYSTEM = new Initiator(InitiatorType.System, "jimflow", "jimflow");

  private Initiators() {}

  static Initiator orSystem(Initiator initiator) {
    return initiator != null ? initiator : SYSTEM;
  }
}
