package io.jimflow.registration;

import io.jimflow.common.TaskQueues;
import io.jimflow.exampledata.DataGenerationActivities;
import io.jimflow.exampledata.DataGenerationWorkflowImpl;
import io.jimflow.maintenance.ClearConnectedSystemWorkflowImpl;
import io.jimflow.maintenance.DeleteConnectedSystemWorkflowImpl;
import io.jimflow.maintenance.HistoryRetentionWorkflowImpl;
import io.jimflow.maintenance.HousekeepingWorkflowImpl;
import io.jimflow.maintenance.MaintenanceActivities;
import io.jimflow.resource.ResourceActivities;
import io.jimflow.resource.ResourceLockWorkflowImpl;
import io.jimflow.runrecords.RunRecordActivities;
import io.jimflow.runrecords.RunRecordsWorkflowImpl;
import io.jimflow.schedule.ExecutionRecordActivities;
import io.jimflow.schedule.NotificationActivities;
import io.jimflow.schedule.NotificationWorkflowImpl;
import io.jimflow.schedule.ScheduleExecutionWorkflowImpl;
import io.jimflow.schedule.SchedulePreviewWorkflowImpl;
import io.jimflow.schedule.StepActivities;
import io.jimflow.workitem.WorkItemActivities;
import io.jimflow.workitem.WorkItemManagerActivities;
import io.jimflow.workitem.WorkItemWorkflowImpl;
import java.util.Arrays;
import java.util.List;

/**
 * What a jimflow worker serves on each of its task queues: the workflow implementations and the
 * activity interfaces. The worker registers from this list, and so do tests that host workers and
 * replay stored histories; clients name the queues through {@link TaskQueues}.
 *
 * <p>A worker registers, for each activity interface, the one implementation it has of it.
 */
public enum WorkerRegistration {

  /**
   * Schedule executions, the resource locks their steps take, the execution records, and the
   * notifications they send.
   */
  SCHEDULES(
      TaskQueues.SCHEDULES,
      List.of(
          ScheduleExecutionWorkflowImpl.class,
          ResourceLockWorkflowImpl.class,
          NotificationWorkflowImpl.class,
          SchedulePreviewWorkflowImpl.class),
      List.of(
          StepActivities.class,
          ResourceActivities.class,
          ExecutionRecordActivities.class,
          NotificationActivities.class)),

  /** The work managers of work items and their look-ups. */
  WORK_ITEMS(
      TaskQueues.WORK_ITEMS,
      List.of(WorkItemWorkflowImpl.class),
      List.of(WorkItemManagerActivities.class)),

  /** Work item runs: the worker's slot count here is the items' "free process resource". */
  WORK_ITEM_RUNS(TaskQueues.WORK_ITEM_RUNS, List.of(), List.of(WorkItemActivities.class)),

  /**
   * Housekeeping, history retention, connected-system maintenance, example data and run records;
   * clearing, deleting and housekeeping take resources as run-profile steps do.
   */
  MAINTENANCE(
      TaskQueues.MAINTENANCE,
      List.of(
          HousekeepingWorkflowImpl.class,
          HistoryRetentionWorkflowImpl.class,
          ClearConnectedSystemWorkflowImpl.class,
          DeleteConnectedSystemWorkflowImpl.class,
          DataGenerationWorkflowImpl.class,
          RunRecordsWorkflowImpl.class),
      List.of(
          MaintenanceActivities.class,
          DataGenerationActivities.class,
          RunRecordActivities.class,
          ResourceActivities.class));

  private final String taskQueue;
  private final List<Class<?>> workflows;
  private final List<Class<?>> activities;

  WorkerRegistration(String taskQueue, List<Class<?>> workflows, List<Class<?>> activities) {
    this.taskQueue = taskQueue;
    this.workflows = workflows;
    this.activities = activities;
  }

  /** The task queue's name. */
  public String taskQueue() {
    return taskQueue;
  }

  /** The workflow implementations registered on the queue. */
  public List<Class<?>> workflows() {
    return workflows;
  }

  /** The activity interfaces whose implementations are registered on the queue. */
  public List<Class<?>> activities() {
    return activities;
  }

  /** Every workflow implementation a jimflow worker registers, on whichever queue. */
  public static List<Class<?>> allWorkflows() {
    return Arrays.stream(values()).flatMap(r -> r.workflows().stream()).toList();
  }
}
