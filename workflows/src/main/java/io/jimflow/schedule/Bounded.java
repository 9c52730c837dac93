package io.jimflow.schedule;

import java.time.Duration;

/**
 * A value a payload asked for, held within a bound of the worker's configuration: the value the
 * worker uses and, when it differs from the one asked for, a note that says so (for the step's or
 * the run's message), e.g. {@code "timeout 7d clamped to the worker's maximum 6h"}.
 *
 * <p>Pure decisions: whoever acts on a payload (an activity, from the worker's settings) asks here
 * and writes the note where the user sees it.
 *
 * @param value what the worker uses
 * @param note null when the payload's value is used as it came
 */
public record Bounded<T>(T value, String note) {

  /** The payload's value, unchanged. */
  public static <T> Bounded<T> kept(T value) {
    return new Bounded<>(value, null);
  }

  /** Whether the worker changed the payload's value. */
  public boolean clamped() {
    return note != null;
  }

  /**
   * At most {@code maximum}; a null {@code maximum} is no bound. A null {@code requested} means
   * "unbounded" and is clamped to a set maximum too.
   */
  public static Bounded<Duration> atMost(String what, Duration requested, Duration maximum) {
    if (maximum == null || (requested != null && requested.compareTo(maximum) <= 0)) {
      return kept(requested);
    }
    return new Bounded<>(
        maximum, clampNote(what, requested == null ? "none" : format(requested), format(maximum)));
  }

  /** At least {@code minimum}; a null {@code requested} is left to the caller's default. */
  public static Bounded<Duration> atLeast(String what, Duration requested, Duration minimum) {
    if (requested == null || minimum == null || requested.compareTo(minimum) >= 0) {
      return kept(requested);
    }
    return new Bounded<>(
        minimum,
        what + " " + format(requested) + " raised to the worker's minimum " + format(minimum));
  }

  /**
   * At most {@code maximum}; a null {@code maximum} is no bound. A null {@code requested} ("no
   * limit") gets a set maximum without a note: the worker's maximum is then its default.
   */
  public static Bounded<Long> atMost(String what, Long requested, Long maximum) {
    if (maximum == null || (requested != null && requested <= maximum)) {
      return kept(requested);
    }
    if (requested == null) {
      return kept(maximum);
    }
    return new Bounded<>(maximum, clampNote(what, requested.toString(), maximum.toString()));
  }

  private static String clampNote(String what, String requested, String maximum) {
    return what + " " + requested + " clamped to the worker's maximum " + maximum;
  }

  /** A duration as people write it: {@code 7d}, {@code 6h}, {@code 1h30m}, {@code 45s}, 250ms. */
  public static String format(Duration duration) {
    if (duration.isNegative()) {
      return "-" + format(duration.negated());
    }
    if (duration.isZero()) {
      return "0s";
    }
    StringBuilder text = new StringBuilder();
    long days = duration.toDays();
    append(text, days, "d");
    append(text, duration.toHoursPart(), "h");
    append(text, duration.toMinutesPart(), "m");
    append(text, duration.toSecondsPart(), "s");
    append(text, duration.toMillisPart(), "ms");
    return text.length() == 0 ? duration.toString() : text.toString();
  }

  private static void append(StringBuilder text, long amount, String unit) {
    if (amount > 0) {
      text.append(amount).append(unit);
    }
  }
}
