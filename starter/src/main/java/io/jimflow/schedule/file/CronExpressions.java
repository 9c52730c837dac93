package io.jimflow.schedule.file;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Checks standard five-field cron expressions (minute hour day-of-month month day-of-week) as
 * Temporal Schedules accept them, so that a mistake is reported with its file line before anything
 * reaches the server.
 */
public final class CronExpressions {

  private static final List<String> MACROS =
      List.of("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly");

  private static final List<String> MONTHS =
      List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
  private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");

  private static final List<Field> FIELDS =
      List.of(
          new Field("minute", 0, 59, List.of(), 0),
          new Field("hour", 0, 23, List.of(), 0),
          new Field("day-of-month", 1, 31, List.of(), 0),
          new Field("month", 1, 12, MONTHS, 1),
          // 7 is Sunday as well, as in most cron dialects.
          new Field("day-of-week", 0, 7, DAYS, 0));

  private CronExpressions() {}

  /** Why the expression is not valid, or empty when it is. */
  public static Optional<String> problem(String expression) {
    String trimmed = expression.trim();
    if (trimmed.startsWith("@")) {
      return MACROS.contains(trimmed.toLowerCase(Locale.ROOT))
          ? Optional.empty()
          : Optional.of("unknown macro " + trimmed + " (known: " + String.join(", ", MACROS) + ")");
    }
    String[] parts = trimmed.isEmpty() ? new String[0] : trimmed.split("\\s+");
    if (parts.length != FIELDS.size()) {
      return Optional.of(
          "has "
              + parts.length
              + (parts.length == 1 ? " field" : " fields")
              + ", expected 5 (minute hour day-of-month month day-of-week)");
    }
    for (int i = 0; i < parts.length; i++) {
      Optional<String> problem = FIELDS.get(i).problem(parts[i]);
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  private record Field(String name, int min, int max, List<String> names, int firstNameValue) {

    Optional<String> problem(String text) {
      for (String element : text.split(",", -1)) {
        Optional<String> problem = elementProblem(element);
        if (problem.isPresent()) {
          return problem;
        }
      }
      return Optional.empty();
    }

    private Optional<String> elementProblem(String element) {
      if (element.isEmpty()) {
        return Optional.of(name + " has an empty list item");
      }
      String range = element;
      int slash = element.indexOf('/');
      if (slash >= 0) {
        range = element.substring(0, slash);
        String step = element.substring(slash + 1);
        if (!step.matches("\\d+") || Integer.parseInt(step) < 1) {
          return Optional.of(name + " step '" + step + "' must be a whole number of at least 1");
        }
        if (Integer.parseInt(step) > max) {
          return Optional.of(name + " step " + step + " is larger than " + max);
        }
      }
      if (range.equals("*") || (range.equals("?") && (min == 1 && max == 31 || max == 7))) {
        return Optional.empty();
      }
      String[] bounds = range.split("-", -1);
      if (bounds.length > 2) {
        return Optional.of(name + " '" + element + "' is not a value, range or step");
      }
      Integer start = null;
      for (String bound : bounds) {
        Optional<Integer> value = value(bound);
        if (value.isEmpty()) {
          return Optional.of(name + " '" + bound + "' is not a valid value (" + allowed() + ")");
        }
        if (value.get() < min || value.get() > max) {
          return Optional.of(name + " " + bound + " is out of range " + min + "-" + max);
        }
        if (start != null && value.get() < start) {
          return Optional.of(name + " range " + range + " ends before it starts");
        }
        start = value.get();
      }
      return Optional.empty();
    }

    private Optional<Integer> value(String text) {
      if (text.matches("\\d{1,4}")) {
        return Optional.of(Integer.parseInt(text));
      }
      int index = names.indexOf(text.toUpperCase(Locale.ROOT));
      return index < 0 ? Optional.empty() : Optional.of(index + firstNameValue);
    }

    private String allowed() {
      return min
          + "-"
          + max
          + (names.isEmpty() ? "" : " or " + names.get(0) + "-" + names.get(names.size() - 1));
    }
  }
}
