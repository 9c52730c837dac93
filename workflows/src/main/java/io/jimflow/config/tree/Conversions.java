package io.jimflow.config.tree;

import io.jimflow.config.tree.ConfigNode.ScalarNode;
import io.jimflow.config.tree.ConfigNode.ScalarType;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The conversions configuration files share; each reports a problem that says what was expected.
 */
public final class Conversions {

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("H:mm");

  private Conversions() {}

  /** Any scalar, as written. */
  public static Conversion<String> text() {
    return scalar((node, problems) -> Optional.of(node.text()));
  }

  /** A scalar that is not blank. */
  public static Conversion<String> nonBlankText() {
    return text().check(t -> t.isBlank() ? "must not be empty" : null);
  }

  /** {@code true} or {@code false}. */
  public static Conversion<Boolean> bool() {
    return scalar(
        (node, problems) -> {
          if (node.type() == ScalarType.BOOLEAN) {
            return Optional.of(Boolean.parseBoolean(node.text()) || isYamlTrue(node.text()));
          }
          problems.at(node, quote(node) + " is not true or false");
          return Optional.empty();
        });
  }

  /** A whole number. */
  public static Conversion<Integer> integer() {
    return scalar(
        (node, problems) -> {
          if (node.type() == ScalarType.INTEGER) {
            try {
              return Optional.of(Integer.parseInt(node.text().replace("_", "")));
            } catch (NumberFormatException e) {
              problems.at(node, quote(node) + " is too large");
              return Optional.empty();
            }
          }
          problems.at(node, quote(node) + " is not a whole number");
          return Optional.empty();
        });
  }

  /** A whole number from {@code min} to {@code max}, both included. */
  public static Conversion<Integer> integerIn(int min, int max) {
    return integer()
        .check(
            value ->
                value < min || value > max ? value + " is out of range " + min + "-" + max : null);
  }

  /** A number, whole or decimal. */
  public static Conversion<Double> decimal() {
    return scalar(
        (node, problems) -> {
          if (node.type() == ScalarType.INTEGER || node.type() == ScalarType.DECIMAL) {
            try {
              return Optional.of(Double.parseDouble(node.text().replace("_", "")));
            } catch (NumberFormatException e) {
              // falls through to the problem below
            }
          }
          problems.at(node, quote(node) + " is not a number");
          return Optional.empty();
        });
  }

  /** An ISO-8601 duration such as {@code PT30M}, greater than zero. */
  public static Conversion<Duration> positiveDuration() {
    return scalar(
        (node, problems) -> {
          try {
            Duration duration = Duration.parse(node.text().trim());
            if (duration.isNegative() || duration.isZero()) {
              problems.at(node, quote(node) + " must be longer than zero");
              return Optional.empty();
            }
            return Optional.of(duration);
          } catch (DateTimeParseException e) {
            problems.at(node, quote(node) + " is not an ISO-8601 duration (e.g. PT30M)");
            return Optional.empty();
          }
        });
  }

  /** A time of day, {@code HH:mm}, e.g. {@code 02:00}. */
  public static Conversion<LocalTime> timeOfDay() {
    return scalar(
        (node, problems) -> {
          String text = node.text().trim();
          if (text.matches("\\d{1,2}:\\d{2}")) {
            try {
              return Optional.of(LocalTime.parse(text, TIME));
            } catch (DateTimeParseException e) {
              // falls through to the problem below
            }
          }
          problems.at(node, quote(node) + " is not a time of day (HH:mm, e.g. 02:00)");
          return Optional.empty();
        });
  }

  /** An IANA time zone id such as {@code Europe/London}; a likely typo gets a suggestion. */
  public static Conversion<ZoneId> timeZone() {
    return scalar(
        (node, problems) -> {
          String text = node.text().trim();
          try {
            if (text.contains("/") || text.equals("UTC")) {
              return Optional.of(ZoneId.of(text));
            }
          } catch (DateTimeException e) {
            // falls through to the problem below
          }
          String hint =
              Suggestions.closest(text, ZoneId.getAvailableZoneIds())
                  .map(z -> "; did you mean " + z + "?")
                  .orElse("");
          problems.at(node, quote(node) + " is not an IANA time zone (e.g. Europe/London)" + hint);
          return Optional.empty();
        });
  }

  /** A day of the week as its first three letters ({@code MON}) or its full name, any case. */
  public static Conversion<DayOfWeek> dayOfWeek() {
    Map<String, DayOfWeek> names = new LinkedHashMap<>();
    for (DayOfWeek day : DayOfWeek.values()) {
      names.put(day.name().substring(0, 3), day);
      names.put(day.name(), day);
    }
    return scalar(
        (node, problems) -> {
          DayOfWeek day = names.get(node.text().trim().toUpperCase(Locale.ROOT));
          if (day == null) {
            problems.at(node, quote(node) + " is not a day of the week (MON, TUE, … SUN)");
          }
          return Optional.ofNullable(day);
        });
  }

  /**
   * One of a fixed set of words (case-insensitive), with a suggestion when the word is close to
   * one.
   *
   * @param choices the accepted words in the order a message lists them, each with its value
   */
  public static <T> Conversion<T> oneOf(Map<String, T> choices) {
    return scalar(
        (node, problems) -> {
          String text = node.text().trim();
          for (Map.Entry<String, T> choice : choices.entrySet()) {
            if (choice.getKey().equalsIgnoreCase(text)) {
              return Optional.of(choice.getValue());
            }
          }
          String hint =
              Suggestions.closest(text, choices.keySet())
                  .map(c -> "; did you mean " + c + "?")
                  .orElse("");
          problems.at(
              node, quote(node) + " is not one of " + String.join(", ", choices.keySet()) + hint);
          return Optional.empty();
        });
  }

  /** Wraps a scalar conversion so that mappings, lists and nulls are reported uniformly. */
  public static <T> Conversion<T> scalar(ScalarConversion<T> conversion) {
    return (node, problems) -> {
      if (node instanceof ScalarNode scalar && !scalar.isNull()) {
        return conversion.convert(scalar, problems);
      }
      problems.at(node, "expected a value but found " + node.kind());
      return Optional.empty();
    };
  }

  /** A conversion of a non-null scalar. */
  @FunctionalInterface
  public interface ScalarConversion<T> {
    Optional<T> convert(ScalarNode node, Problems problems);
  }

  static String quote(ScalarNode node) {
    return "'" + node.text() + "'";
  }

  private static boolean isYamlTrue(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "yes", "on", "y" -> true;
      default -> false;
    };
  }
}
