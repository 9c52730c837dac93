package io.jimflow.workitem;

import io.jimflow.common.TaskQueues;
import io.temporal.activity.ActivityCancellationType;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.Priority;
import io.temporal.common.RetryOptions;
import java.time.Duration;
import java.time.Instant;

/** How the work manager calls its activities: the run, WorkItemFinished and its own look-ups. */
final class WorkItemActivityOptions {

  /** Seed 003: WorkItemFinished is limited to one minute and never retried. */
  static final Duration FINISHED_TIMEOUT = Duration.ofMinutes(1);

  /**
   * The server's hard bound lies this far behind max run time + grace, so the workflow's own kill
   * comes first.
   */
  static final Duration HARD_BOUND_MARGIN = WorkItemSpec.RUN_BOUND_MARGIN;

  /** The manager's own look-ups (has the predecessor ended?), retried until they answer. */
  static final ActivityOptions MANAGER =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(1))
                  .setMaximumInterval(Duration.ofSeconds(30))
                  .build())
          .build();

  private WorkItemActivityOptions() {}

  /** The run attempt of {@code spec}, queued at {@code now} on the run slots' task queue. */
  static ActivityOptions run(WorkItemSpec spec, Instant now) {
    int key = WorkItemPriority.keyFor(spec.startTime(), now, spec.expectedRunTime());
    return ActivityOptions.newBuilder()
        .setTaskQueue(TaskQueues.WORK_ITEM_RUNS)
        .setStartToCloseTimeout(spec.maxRunTime().plus(spec.gracePeriod()).plus(HARD_BOUND_MARGIN))
        .setHeartbeatTimeout(spec.heartbeatTimeout())
        // A lost attempt is not retried by Temporal: the lifecycle decides (Aborted →
        // AbortedRestart).
        .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
        .setPriority(Priority.newBuilder().setPriorityKey(key).build())
        .setCancellationType(ActivityCancellationType.TRY_CANCEL)
        .setSummary("run " + spec.kind() + " " + spec.guid())
        .build();
  }

  /** The one WorkItemFinished call of an instance of {@code spec} that ends {@code finalState}. */
  static ActivityOptions finished(WorkItemSpec spec, WorkItemState finalState) {
    return ActivityOptions.newBuilder()
        .setTaskQueue(TaskQueues.WORK_ITEM_RUNS)
        .setStartToCloseTimeout(FINISHED_TIMEOUT)
        .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
        .setPriority(Priority.newBuilder().setPriorityKey(1).build())
        .setSummary("finished " + spec.kind() + " " + spec.guid() + " " + finalState)
        .build();
  }
}
