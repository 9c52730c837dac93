package io.jimflow.metrics;

import io.jimflow.common.TaskQueues;
import io.temporal.api.enums.v1.TaskQueueType;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflowservice.v1.DescribeTaskQueueRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How many workers Temporal has seen poll each of jimflow's task queues lately (the server forgets
 * a poller after about a minute without a poll): zero means what is started there waits.
 */
public final class TaskQueuePollers {

  /** jimflow's task queues with the kinds of task each serves. */
  static final Map<String, List<TaskQueueType>> QUEUES =
      Map.of(
          TaskQueues.SCHEDULES,
          List.of(TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW, TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY),
          TaskQueues.WORK_ITEMS,
          List.of(TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW, TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY),
          TaskQueues.WORK_ITEM_RUNS,
          List.of(TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY),
          TaskQueues.MAINTENANCE,
          List.of(TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW, TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY));

  private final WorkflowServiceStubs stubs;
  private final String namespace;

  public TaskQueuePollers(WorkflowServiceStubs stubs, String namespace) {
    this.stubs = stubs;
    this.namespace = namespace;
  }

  /**
   * The pollers of each queue and kind ("workflow", "activity"), as the server reports them now.
   */
  public Map<String, Map<String, Integer>> read() {
    Map<String, Map<String, Integer>> pollers = new LinkedHashMap<>();
    QUEUES.forEach(
        (queue, types) -> {
          for (TaskQueueType type : types) {
            int count =
                stubs
                    .blockingStub()
                    .describeTaskQueue(
                        DescribeTaskQueueRequest.newBuilder()
                            .setNamespace(namespace)
                            .setTaskQueue(TaskQueue.newBuilder().setName(queue))
                            .setTaskQueueType(type)
                            .build())
                    .getPollersCount();
            pollers
                .computeIfAbsent(queue, q -> new LinkedHashMap<>())
                .put(
                    type == TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW ? "workflow" : "activity",
                    count);
          }
        });
    return pollers;
  }
}
