package io.jimflow.schedule;

/**
 * What a schedule execution starts from.
 *
 * @param definition an immutable snapshot of the schedule as it was when the run was started
 * @param initiator who started it (the schedule itself for scheduled runs)
 * @param trigger whether the schedule's trigger or a person/program started it
 * @param settings orchestration limits fixed when the run is started (workflow code reads no
 *     config)
 */
public record ScheduleExecutionInput(
    ScheduleDefinition definition,
    Initiator initiator,
    TriggerKind trigger,
    ExecutionSettings settings) {

  public ScheduleExecutionInput {
    settings = settings == null ? ExecutionSettings.DEFAULT : settings;
  }

  /**
   * Orchestration limits of one run.
   *
   * @param maxParallelSteps how many steps of one group may run at once; kept below the server's
   *     limit of 2,000 pending activities per workflow
   */
  public record ExecutionSettings(int maxParallelSteps) {
    public static final int DEFAULT_MAX_PARALLEL_STEPS = 500;
    public static final ExecutionSettings DEFAULT =
        new ExecutionSettings(DEFAULT_MAX_PARALLEL_STEPS);

    public ExecutionSettings {
      if (maxParallelSteps <= 0) {
        maxParallelSteps = DEFAULT_MAX_PARALLEL_STEPS;
      }
    }
  }

  /** Who started an execution, as JIM's initiator triad records it. */
  public record Initiator(InitiatorType type, String id, String name) {

    /** The initiator recorded when a system workflow's input names none. */
    public static final Initiator SYSTEM =
        new Initiator(InitiatorType.System, "jimflow", "jimflow");

    /** The given initiator, or {@link #SYSTEM} when there is none. */
    public static Initiator orSystem(Initiator initiator) {
      return initiator != null ? initiator : SYSTEM;
    }
  }

  /** JIM's initiator types. */
  public enum InitiatorType {
    Schedule,
    User,
    ApiKey,
    System
  }

  /** How an execution came about. */
  public enum TriggerKind {
    Scheduled,
    Manual
  }
}
