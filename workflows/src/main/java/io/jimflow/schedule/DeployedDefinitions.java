package io.jimflow.schedule;

import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleDescription;
import java.util.Optional;

/** The schedule definitions deployed Temporal Schedules carry in their action's input. */
public final class DeployedDefinitions {

  private DeployedDefinitions() {}

  /** The definition a schedule starts executions of; empty if it starts something else. */
  public static Optional<ScheduleDefinition> of(ScheduleDescription d) {
    if (!(d.getSchedule().getAction() instanceof ScheduleActionStartWorkflow action)
        || !ScheduleExecutionWorkflow.TYPE.equals(action.getWorkflowType())) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(action.getArguments().get(0, ScheduleExecutionInput.class))
          .map(ScheduleExecutionInput::definition);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }
}
