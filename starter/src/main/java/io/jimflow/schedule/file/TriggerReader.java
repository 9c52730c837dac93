package io.jimflow.schedule.file;

import io.jimflow.config.tree.ConfigNode;
import io.jimflow.config.tree.Conversions;
import io.jimflow.config.tree.Fields;
import io.jimflow.config.tree.Problems;
import io.jimflow.schedule.Trigger;
import java.time.DayOfWeek;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads a schedule's {@code trigger}: cron expressions, specific times, an interval, a zone. */
final class TriggerReader {

  static final List<String> TRIGGER_KEYS = List.of("cron", "at", "every", "timezone");
  static final List<String> AT_KEYS = List.of("days", "times");
  static final List<String> EVERY_KEYS = List.of("minutes", "hours", "from", "to", "days");

  private final Problems problems;

  TriggerReader(Problems problems) {
    this.problems = problems;
  }

  /** A schedule's {@code trigger}; empty (reported) when it names no way to start. */
  Optional<Trigger> read(Fields t) {
    t.allowOnly(TRIGGER_KEYS);
    List<String> cron = new ArrayList<>();
    if (t.has("cron") && t.itemsOrSingle("cron").isEmpty()) {
      // An empty list would otherwise leave a schedule that never fires, without a word.
      problems.at(
          t.lineOf("cron"),
          t.pathOf("cron"),
          "list at least one cron expression (e.g. [\"0 2 * * *\"]); leave the trigger out for a"
              + " schedule run only by hand");
    }
    for (ConfigNode node : t.itemsOrSingle("cron")) {
      Conversions.text()
          .check(
              expression ->
                  CronExpressions.problem(expression)
                      .map(p -> "'" + expression + "' is not a valid cron expression: " + p)
                      .orElse(null))
          .convert(node, problems)
          .ifPresent(cron::add);
    }
    Trigger.SpecificTimes at = t.fields("at").map(this::readSpecificTimes).orElse(null);
    Trigger.Interval every = t.fields("every").flatMap(this::readInterval).orElse(null);
    String zone = t.optional("timezone", Conversions.timeZone()).map(ZoneId::getId).orElse(null);
    if (!t.has("cron") && !t.has("at") && !t.has("every")) {
      problems.at(
          t.node().line(),
          t.node().path(),
          "a trigger needs cron, at or every (leave the trigger out for a schedule run only by"
              + " hand)");
      return Optional.empty();
    }
    return Optional.of(new Trigger(cron, at, every, zone));
  }

  private Trigger.SpecificTimes readSpecificTimes(Fields at) {
    at.allowOnly(AT_KEYS);
    List<DayOfWeek> days = at.listOf("days", Conversions.dayOfWeek());
    List<LocalTime> times = at.listOf("times", Conversions.timeOfDay());
    if (!at.has("times")) {
      problems.at(
          at.node().line(), at.node().path(), "missing required key 'times' (e.g. [\"02:00\"])");
    } else if (at.itemsOrSingle("times").isEmpty()) {
      problems.at(
          at.lineOf("times"),
          at.pathOf("times"),
          "list at least one time of day (e.g. [\"02:00\"])");
    }
    return new Trigger.SpecificTimes(days, times);
  }

  private Optional<Trigger.Interval> readInterval(Fields every) {
    every.allowOnly(EVERY_KEYS);
    Optional<Integer> minutes = every.optional("minutes", Conversions.integerIn(1, 1440));
    Optional<Integer> hours = every.optional("hours", Conversions.integerIn(1, 24));
    if (every.has("minutes") == every.has("hours")) {
      problems.at(
          every.node().line(),
          every.node().path(),
          every.has("minutes")
              ? "give either minutes or hours, not both"
              : "give the interval as minutes or hours (e.g. minutes: 30)");
    }
    Optional<LocalTime> from = every.optional("from", Conversions.timeOfDay());
    Optional<LocalTime> to = every.optional("to", Conversions.timeOfDay());
    if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
      problems.at(
          every.lineOf("to"),
          every.pathOf("to"),
          "'"
              + to.get()
              + "' must be later than from '"
              + from.get()
              + "' (windows end on the same day)");
    }
    List<DayOfWeek> days = every.listOf("days", Conversions.dayOfWeek());
    return Optional.of(
        new Trigger.Interval(
            minutes.orElse(null), hours.orElse(null), from.orElse(null), to.orElse(null), days));
  }
}
