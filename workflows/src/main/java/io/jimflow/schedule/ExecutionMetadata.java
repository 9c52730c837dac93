package io.jimflow.schedule;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;

/**
 * The static summary and details an execution is started with, which the Temporal UI shows under
 * "User Metadata": which schedule, who started it and how, and its steps.
 *
 * <p>Both are fixed at start; what changes while it runs is in the step rail (current details).
 */
public final class ExecutionMetadata {

  /** Above this many steps the details count them instead of listing each. */
  static final int STEP_LINES = 40;

  private ExecutionMetadata() {}

  /**
   * One line, e.g. {@code Nightly HR Sync · manual run by User Ada} or {@code … · scheduled run}.
   */
  public static String summary(
      ScheduleDefinition definition, Initiator initiator, TriggerKind trigger) {
    if (trigger == TriggerKind.Scheduled) {
      return definition.name() + " · scheduled run";
    }
    return definition.name() + " · manual run by " + who(initiator);
  }

  /** Markdown: the schedule with its description, initiator and trigger, and the planned steps. */
  public static String details(
      ScheduleDefinition definition, Initiator initiator, TriggerKind trigger) {
    StringBuilder md = new StringBuilder();
    md.append("**Schedule** `").append(definition.id()).append("` · ").append(definition.name());
    md.append("\n\n");
    if (definition.description() != null && !definition.description().isBlank()) {
      md.append(definition.description().strip()).append("\n\n");
    }
    md.append("**Trigger** ").append(trigger);
    md.append(" · **Initiator** ").append(who(initiator));
    if (initiator != null && initiator.id() != null) {
      md.append(" (").append(initiator.id()).append(')');
    }
    md.append("\n\n");
    if (definition.steps().size() > STEP_LINES) {
      md.append("**Steps** ").append(definition.steps().size()).append('\n');
      return md.toString();
    }
    md.append("**Steps** (same index = run in parallel)\n\n");
    for (StepDefinition step : definition.steps()) {
      md.append("- ")
          .append(step.index())
          .append(" · ")
          .append(StepOptions.summary(step))
          .append('\n');
    }
    return md.toString();
  }

  private static String who(Initiator initiator) {
    if (initiator == null) {
      return "unknown";
    }
    return initiator.type() + " " + (initiator.name() == null ? initiator.id() : initiator.name());
  }
}
