package io.jimflow.schedule;

import java.util.Optional;

/**
 * A person's decision on a step waiting in AwaitingApproval, sent to its execution as an update (or
 * a signal, for tools that only send signals). Every field comes from outside the worker: {@link
 * #problem()} bounds each before the execution acts on it.
 *
 * @param step the step's name
 * @param approve true to let the step go past its threshold, false to reject it
 * @param by who decided (the CLI sends the operating-system user)
 * @param reason why, as it goes into the run record and the execution record
 */
public record ApprovalDecision(String step, boolean approve, String by, String reason) {

  public static final int MAX_STEP = 200;
  public static final int MAX_BY = 200;
  public static final int MAX_REASON = 1_000;

  /** The update's name, for untyped stubs and the Temporal UI. */
  public static final String UPDATE = "decideApproval";

  /** The signal's name, with the same effect as the update. */
  public static final String SIGNAL = "approvalDecision";

  /** What makes the decision unusable, in one line; empty when it is fine. */
  public Optional<String> problem() {
    if (step == null || step.isBlank() || step.length() > MAX_STEP) {
      return Optional.of("the step must be named (at most " + MAX_STEP + " characters)");
    }
    if (by == null || by.isBlank() || by.length() > MAX_BY || hasControl(by)) {
      return Optional.of(
          "who decided must be given on one line (at most " + MAX_BY + " characters)");
    }
    if (reason == null || reason.isBlank() || reason.length() > MAX_REASON || hasControl(reason)) {
      return Optional.of(
          "a reason must be given on one line (at most " + MAX_REASON + " characters)");
    }
    return Optional.empty();
  }

  /** How the decision reads in records, e.g. {@code approved by ada: titles were redone}. */
  public String describe() {
    return (approve ? "approved" : "rejected") + " by " + by + ": " + reason;
  }

  private static boolean hasControl(String text) {
    return text.chars().anyMatch(c -> c < 0x20 || c == 0x7F);
  }
}
