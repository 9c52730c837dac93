package io.jimflow.schedule;

import io.jimflow.common.JimflowSearchAttributes;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The steps of one execution that wait for a person's approval, and the decisions that arrive for
 * them. Keeps the search attribute {@code JimflowAwaitingApproval} true while any step waits.
 * Workflow code.
 */
final class Approvals {

  /** Change id: a step held above a threshold waits in AwaitingApproval for a decision. */
  static final String THRESHOLD_APPROVAL = "step-threshold-approval";

  /** How long a step waits for a decision when its worker did not say (24 hours). */
  static final Duration DEFAULT_WINDOW = Duration.ofHours(24);

  /** The longest wait a worker may ask for; a larger value is taken as this. */
  static final Duration MAX_WINDOW = Duration.ofDays(30);

  /** The step statistic through which a held step's worker gives its decision window. */
  static final String WINDOW_STAT = "approvalTimeoutSeconds";

  /**
   * Change id: a step that starts waiting for an approval notifies the webhook (a {@link
   * NotificationWorkflow} child); executions begun before it wait without notifying.
   */
  static final String NOTIFY_AWAITING = "notify-awaiting-approval";

  private final Map<Integer, String> awaiting = new LinkedHashMap<>();
  private final Map<Integer, ApprovalDecision> decided = new HashMap<>();
  private final Map<Integer, Integer> holds = new HashMap<>();

  /** Why this decision cannot be taken now, in one line; empty when it can. */
  Optional<String> problem(ApprovalDecision decision) {
    if (decision == null) {
      return Optional.of("no decision given");
    }
    Optional<String> invalid = decision.problem();
    if (invalid.isPresent()) {
      return invalid;
    }
    if (position(decision.step()).isEmpty()) {
      return Optional.of(
          "no step named '"
              + decision.step()
              + "' awaits approval"
              + (awaiting.isEmpty()
                  ? ""
                  : " (awaiting: " + String.join(", ", awaiting.values()) + ")"));
    }
    return Optional.empty();
  }

  /** Takes a decision {@link #problem} found nothing wrong with; returns how it reads. */
  String decide(ApprovalDecision decision) {
    int position = position(decision.step()).orElseThrow();
    decided.putIfAbsent(position, decision);
    return "step '" + decision.step() + "' " + decided.get(position).describe();
  }

  /**
   * Waits until a person decides on the step, or {@code window} passes (then it is rejected). Once
   * the step can take a decision, posts {@code notice} (once per hold; its delivery never changes
   * the execution).
   */
  ApprovalDecision await(int position, String step, Duration window, Notification notice) {
    awaiting.put(position, step);
    publish();
    if (Workflow.getVersion(NOTIFY_AWAITING, Workflow.DEFAULT_VERSION, 1) >= 1) {
      int hold = holds.merge(position, 1, Integer::sum);
      Notifications.send(notice, "approval-" + position + "-" + hold);
    }
    boolean decision = Workflow.await(window, () -> decided.containsKey(position));
    awaiting.remove(position);
    publish();
    if (decision) {
      return decided.remove(position);
    }
    return new ApprovalDecision(step, false, "jimflow", "no decision within " + window);
  }

  /** The window a held step's result asks for, bounded. */
  static Duration window(StepRunResult held) {
    Long seconds = held.stats().get(WINDOW_STAT);
    if (seconds == null || seconds <= 0) {
      return DEFAULT_WINDOW;
    }
    Duration asked = Duration.ofSeconds(Math.min(seconds, MAX_WINDOW.toSeconds()));
    return asked;
  }

  private Optional<Integer> position(String step) {
    return awaiting.entrySet().stream()
        .filter(e -> e.getValue().equals(step))
        .map(Map.Entry::getKey)
        .findFirst();
  }

  private void publish() {
    Workflow.upsertTypedSearchAttributes(
        JimflowSearchAttributes.AWAITING_APPROVAL.valueSet(!awaiting.isEmpty()));
  }
}
