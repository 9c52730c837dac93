package io.jimflow.common;

/** The task queues jimflow's workers poll; every client and worker names them from here. */
public final class TaskQueues {

  /** Schedule executions: {@code ScheduleExecutionWorkflow} and its step activities. */
  public static final String SCHEDULES = "jimflow-schedules";

  /**
   * Work items (seed 003); their run activities live on {@link #WORK_ITEM_RUNS} with bounded slots.
   */
  public static final String WORK_ITEMS = "jimflow-work-items";

  /**
   * Work item run activities: a dedicated queue so that its slot limit is the "free process
   * resource".
   */
  public static final String WORK_ITEM_RUNS = "jimflow-work-item-runs";

  /** Maintenance workflows: housekeeping, history retention, connected-system maintenance. */
  public static final String MAINTENANCE = "jimflow-maintenance";

  private TaskQueues() {}
}
