package io.jimflow.schedule;

import java.util.List;

/**
 * Something an operator should hear of at once, as jimflow posts it to the notifications webhook.
 *
 * @param event what happened
 * @param scheduleId the schedule it concerns
 * @param executionId the execution it concerns; null for skipped and missed runs
 * @param status the execution's final status (ExecutionEnded); null otherwise
 * @param message the execution's message, or what Temporal reported
 * @param steps the steps concerned: those that failed, or the one waiting for an approval
 * @param webhookUrl the schedule's own webhook (its {@code notifications.webhookUrl}); null for the
 *     worker's. The worker posts to it only if its {@code jimflow.notifications.allowed-urls} allow
 *     it: a payload may name any URL.
 */
public record Notification(
    Event event,
    String scheduleId,
    String scheduleName,
    String executionId,
    ExecutionStatus status,
    String message,
    List<String> steps,
    String webhookUrl) {

  public Notification {
    steps = steps == null ? List.of() : List.copyOf(steps);
  }

  /**
   * A step of an execution of {@code schedule} started waiting for an approval; {@code held} says
   * what holds it (the counts, the threshold) and how to approve or reject it.
   */
  public static Notification awaitingApproval(
      ScheduleDefinition schedule, String executionId, String step, String held) {
    return new Notification(
        Event.AwaitingApproval,
        schedule.id(),
        schedule.name(),
        executionId,
        null,
        held,
        List.of(step),
        schedule.notificationUrl());
  }

  /** What a notification tells. */
  public enum Event {
    /** An execution ended Failed or CompleteWithError. */
    ExecutionEnded,
    /** A step started waiting for a person's approval. */
    AwaitingApproval,
    /** Temporal skipped scheduled runs: the previous run was still going. */
    RunsSkipped,
    /** Temporal missed scheduled runs: it could not start them within the catch-up window. */
    RunsMissed
  }
}
