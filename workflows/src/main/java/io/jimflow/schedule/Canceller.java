package io.jimflow.schedule;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import java.util.Optional;

/**
 * Who cancelled an execution, carried as the reason of Temporal's cancel request ({@code "Cancelled
 * by User alice"}), so that the execution can name its canceller in its message and record, as JIM
 * records "Cancelled by user".
 *
 * <p>Anyone who can cancel a workflow writes that reason (the Temporal UI and CLI take free text),
 * so it is read as untrusted: a reason not in this form names nobody, and a name keeps only
 * letters, digits and {@code . _ @ - \} (anything else becomes {@code _}), at most {@value
 * #NAME_LIMIT} characters.
 */
public final class Canceller {

  /** The longest canceller name kept; the rest is cut off. */
  public static final int NAME_LIMIT = 100;

  private static final String PREFIX = "Cancelled by ";

  private Canceller() {}

  /** The cancel reason that names {@code who}. */
  public static String reason(Initiator who) {
    return PREFIX + who.type() + " " + clean(who.id());
  }

  /**
   * The canceller a cancel reason names, or empty when it names none in the form {@link #reason}
   * writes (the name bounded as the class says).
   */
  public static Optional<Initiator> of(String reason) {
    if (reason == null || !reason.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String rest = reason.substring(PREFIX.length());
    int space = rest.indexOf(' ');
    if (space <= 0) {
      return Optional.empty();
    }
    InitiatorType type;
    try {
      type = InitiatorType.valueOf(rest.substring(0, space));
    } catch (IllegalArgumentException notAType) {
      return Optional.empty();
    }
    String name = clean(rest.substring(space + 1));
    return name.isEmpty() ? Optional.empty() : Optional.of(new Initiator(type, name, name));
  }

  /** How a message names the canceller: "User alice". */
  public static String describe(Initiator who) {
    return who.type() + " " + who.id();
  }

  private static String clean(String name) {
    if (name == null) {
      return "";
    }
    String bounded = name.strip();
    StringBuilder kept = new StringBuilder();
    bounded
        .codePoints()
        .limit(NAME_LIMIT)
        .forEach(
            c ->
                kept.appendCodePoint(
                    Character.isLetterOrDigit(c) || ".-_@\\".indexOf(c) >= 0 ? c : '_'));
    return kept.toString();
  }
}
