package io.jimflow.schedule.activities;

import io.jimflow.schedule.Notification;
import java.util.List;

/**
 * The {@code text} of a notification, one paragraph a chat webhook shows as it is. Every field is
 * cut to a bound, since a payload may carry anything.
 */
public final class NotificationText {

  static final int NAME_LIMIT = 200;
  static final int MESSAGE_LIMIT = 1000;
  static final int STEPS_LIMIT = 20;

  private static final String APPROVE_COMMAND = "jimflow executions approve|reject";

  private NotificationText() {}

  public static String of(Notification n) {
    String schedule =
        "schedule '"
            + cut(n.scheduleName() == null ? n.scheduleId() : n.scheduleName(), NAME_LIMIT)
            + "' ("
            + cut(n.scheduleId(), NAME_LIMIT)
            + ")";
    String event = n.event() == null ? "" : n.event().name();
    StringBuilder text = new StringBuilder("jimflow: ");
    switch (event) {
      case "ExecutionEnded" ->
          text.append(schedule).append(" ended ").append(n.status()).append('.');
      case "AwaitingApproval" -> {
        return awaitingApproval(n, schedule);
      }
      case "RunsSkipped" ->
          text.append(schedule)
              .append(" skipped scheduled runs: the previous run was still going.");
      case "RunsMissed" ->
          text.append(schedule)
              .append(" missed scheduled runs: they could not start within its catch-up window.");
      default -> text.append(schedule).append('.');
    }
    List<String> steps =
        n.steps().stream().limit(STEPS_LIMIT).map(s -> cut(s, NAME_LIMIT)).toList();
    if (!steps.isEmpty()) {
      text.append("ExecutionEnded".equals(event) ? " Failed step(s): " : " Step(s): ")
          .append(String.join(", ", steps))
          .append(
              n.steps().size() > STEPS_LIMIT
                  ? " and " + (n.steps().size() - STEPS_LIMIT) + " more"
                  : "")
          .append('.');
    }
    if (n.message() != null && !n.message().isBlank()) {
      text.append(' ').append(cut(n.message().strip(), MESSAGE_LIMIT));
    }
    if (n.executionId() != null) {
      text.append(" Execution: ").append(cut(n.executionId(), NAME_LIMIT));
    }
    return text.toString();
  }

  /**
   * "jimflow: schedule 'X' (x): step 'S' waits for an approval. held: ... above the threshold of
   * ...; Approve or reject it: jimflow executions approve|reject ID --step 'S' --reason TEXT" - the
   * how-to is added when the (cut) message does not end with it.
   */
  private static String awaitingApproval(Notification n, String schedule) {
    String step = cut(n.steps().isEmpty() ? null : n.steps().get(0), NAME_LIMIT);
    String execution = cut(n.executionId(), NAME_LIMIT);
    StringBuilder text =
        new StringBuilder("jimflow: ")
            .append(schedule)
            .append(": step '")
            .append(step)
            .append("' of execution ")
            .append(execution)
            .append(" waits for an approval.");
    String held = n.message() == null ? "" : cut(n.message().strip(), MESSAGE_LIMIT);
    if (!held.isEmpty()) {
      text.append(' ').append(held);
    }
    if (!held.contains(APPROVE_COMMAND)) {
      text.append(held.isEmpty() || held.endsWith(".") ? " " : ". ")
          .append("Approve or reject it: ")
          .append(APPROVE_COMMAND)
          .append(' ')
          .append(execution)
          .append(" --step '")
          .append(step)
          .append("' --reason TEXT");
    }
    return text.toString();
  }

  static String cut(String value, int limit) {
    if (value == null) {
      return "";
    }
    return value.length() <= limit ? value : value.substring(0, limit - 1) + "…";
  }
}
