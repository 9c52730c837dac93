package io.jimflow.e2e;

import io.jimflow.resource.ResourceClaim;
import io.jimflow.resource.ResourceLockWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowClient;
import java.time.Duration;

/** Waits on what a resource lock does, by its query and its history: no fixed sleeps. */
final class LockWatch {

  private LockWatch() {}

  /** The lock's claim once {@code holderId} holds it; fails after two minutes. */
  static ResourceClaim awaitHolder(ResourceLockWorkflow lock, String holderId)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        ResourceClaim holder = lock.state().holder();
        if (holder != null && holder.holderId().equals(holderId)) {
          return holder;
        }
      } catch (RuntimeException notYet) {
        // the lock has not started yet
      }
      Thread.sleep(20);
    }
    throw new AssertionError(holderId + " never held the lock");
  }

  /** Waits until the lock has asked a claimant's run whether it still claims (StillClaims). */
  static void awaitStillClaimsAnswered(WorkflowClient client, String lockWorkflowId)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (System.nanoTime() < deadline) {
      var events = client.fetchHistory(lockWorkflowId).getEvents();
      boolean answered =
          events.stream()
              .filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)
              .anyMatch(
                  done ->
                      events.stream()
                          .anyMatch(
                              scheduled ->
                                  scheduled.getEventId()
                                          == done.getActivityTaskCompletedEventAttributes()
                                              .getScheduledEventId()
                                      && scheduled
                                          .getActivityTaskScheduledEventAttributes()
                                          .getActivityType()
                                          .getName()
                                          .equals("StillClaims")));
      if (answered) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the lock never asked whether the holder still claims it");
  }
}
