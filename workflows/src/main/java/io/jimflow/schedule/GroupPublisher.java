package io.jimflow.schedule;

import io.jimflow.common.JimflowSearchAttributes;
import io.temporal.workflow.Async;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/**
 * Publishes which step group is under way, as the search attribute {@code JimflowStepGroup} and as
 * the execution's record in the store, at most once a {@link #INTERVAL} of workflow time.
 *
 * <p>Each publication costs a history event, a visibility write and a store write; for steps that
 * end at once that was as much as the steps themselves. A group that starts a second or more after
 * the last publication is published as it starts (so schedules whose groups take seconds publish
 * every group, as before); one that starts sooner is published when the second is up, if it is
 * still under way then, else the group under way at that moment is. The first group goes with the
 * execution's first publication, the last with its final status. Deterministic: it counts workflow
 * time and waits on a workflow timer.
 */
final class GroupPublisher {

  /** The {@code Workflow.getVersion} change that introduced this pacing. */
  static final String CHANGE_ID = "coalesced-group-attribute";

  /** The shortest time between two publications while groups start. */
  static final Duration INTERVAL = Duration.ofSeconds(1);

  private final Runnable recordHistory;
  private int group = 1;
  private int publishedGroup = 1;
  private boolean historyDue;
  private long publishedAt;
  private boolean waiting;
  private boolean closed;

  /**
   * @param recordHistory writes the execution's record with the steps that ended since the last
   *     write
   */
  GroupPublisher(Runnable recordHistory) {
    this.recordHistory = recordHistory;
  }

  /** The first publication: the schedule, its status and group 1 in one upsert. */
  void open(String scheduleId, ExecutionStatus status) {
    publishedAt = Workflow.currentTimeMillis();
    Workflow.upsertTypedSearchAttributes(
        JimflowSearchAttributes.SCHEDULE_ID.valueSet(scheduleId),
        JimflowSearchAttributes.STATUS.valueSet(status.name()),
        JimflowSearchAttributes.STEP_GROUP.valueSet(1L));
  }

  /** Group {@code group} (1-based, after the first) starts: the one before it has ended. */
  void groupStarted(int group) {
    this.group = group;
    historyDue = true;
    if (waiting) {
      return;
    }
    long wait = publishedAt + INTERVAL.toMillis() - Workflow.currentTimeMillis();
    if (wait <= 0) {
      publish();
      return;
    }
    waiting = true;
    // Detached: a cancelled execution still publishes until it closes, and cancels no timer.
    Workflow.newDetachedCancellationScope(
            () ->
                Async.procedure(
                    () -> {
                      Workflow.sleep(Duration.ofMillis(wait));
                      waiting = false;
                      if (!closed) {
                        publish();
                      }
                    }))
        .run();
  }

  /**
   * Publishes nothing more before {@link #close(ExecutionStatus)}: the execution writes its last
   * record itself.
   */
  void stop() {
    closed = true;
  }

  /** The last publication: the final status with the last group under way, in one upsert. */
  void close(ExecutionStatus status) {
    closed = true;
    Workflow.upsertTypedSearchAttributes(
        JimflowSearchAttributes.STATUS.valueSet(status.name()),
        JimflowSearchAttributes.STEP_GROUP.valueSet((long) group));
  }

  private void publish() {
    if (historyDue) {
      historyDue = false;
      recordHistory.run();
    }
    if (group != publishedGroup) {
      publishedGroup = group;
      Workflow.upsertTypedSearchAttributes(
          JimflowSearchAttributes.STEP_GROUP.valueSet((long) group));
    }
    publishedAt = Workflow.currentTimeMillis();
  }
}
