package io.jimflow.metrics;

import io.jimflow.store.ApprovalWaits;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * jimflow's domain metrics: what the identity work did, recorded by activities on the worker (never
 * by workflow code, whose replays would count again), each once, when the store says the thing
 * happened (a record inserted or ended), so that an activity's retry does not count twice.
 *
 * <p>Tags are low-cardinality by construction: schedule ids, step types, connected system names and
 * run types come from the worker's own configuration or the schedules an operator deployed;
 * statuses and triggers are enums. No person, execution id or free text is ever a tag. A value that
 * is not one of a tag's known forms is reported as {@link #OTHER}, so a hostile payload cannot
 * multiply series beyond {@link #MAXIMUM_TAG_VALUES} per tag.
 */
public final class JimflowMetrics {

  /** The tag value of an unknown, blank or over-long tag value. */
  public static final String OTHER = "other";

  /** A tag's distinct values from payloads are bounded: beyond it they become {@link #OTHER}. */
  static final int MAXIMUM_TAG_VALUES = 500;

  private static final int MAXIMUM_TAG_LENGTH = 120;

  private final MeterRegistry registry;
  private final Clock clock;
  private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();
  private final Map<String, Map<String, Boolean>> seenValues = new ConcurrentHashMap<>();

  /**
   * Since when the oldest run of each schedule (by tag) waits for an approval, epoch ms; 0: none.
   */
  private final Map<String, AtomicLong> approvalsSince = new ConcurrentHashMap<>();

  public JimflowMetrics(MeterRegistry registry) {
    this(registry, Clock.systemUTC());
  }

  /**
   * @param clock tells how long the oldest approval has waited when Prometheus reads it
   */
  public JimflowMetrics(MeterRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  /** Metrics that go nowhere: for callers that have no registry (tests, tools). */
  public static JimflowMetrics none() {
    return new JimflowMetrics(new CompositeMeterRegistry());
  }

  /** An execution record was created: its execution started. */
  public void executionStarted(String schedule, String trigger) {
    String scheduleTag = bounded("schedule", schedule);
    started(scheduleTag, bounded("trigger", trigger)).increment();
    approvalGauges(scheduleTag);
  }

  /** An execution record took its final status: its execution ended. */
  public void executionEnded(String schedule, String trigger, String status, Instant endedAt) {
    ended(bounded("schedule", schedule), bounded("trigger", trigger), bounded("status", status))
        .increment();
    if ("Complete".equals(status) && endedAt != null) {
      lastSuccess(schedule, endedAt);
    }
  }

  /** An execution of the schedule ended Complete at {@code endedAt} (kept if later than known). */
  public void lastSuccess(String schedule, Instant endedAt) {
    gauge(
            "jimflow.schedule.last.success.timestamp.seconds",
            "When an execution of the schedule last ended Complete, in seconds since the epoch",
            "schedule",
            bounded("schedule", schedule))
        .accumulateAndGet(endedAt.getEpochSecond(), Math::max);
  }

  /** A step of an execution ended, after all its attempts. */
  public void stepEnded(String schedule, String stepType, String status, Duration took) {
    if (took == null || took.isNegative()) {
      return;
    }
    Timer.builder("jimflow.step.duration")
        .description(
            "How long steps took from their start to their end (all attempts), by schedule, step"
                + " type (RunProfile, Executable, SqlScript) and status")
        .tag("schedule", bounded("schedule", schedule))
        .tag("step_type", bounded("step_type", stepType))
        .tag("status", bounded("status", status))
        .register(registry)
        .record(took);
  }

  /** A run profile's run record ended with these totals. */
  public void runEnded(
      String system,
      String runType,
      long processed,
      long added,
      long updated,
      long deleted,
      long errors) {
    String systemTag = bounded("system", system);
    String runTypeTag = bounded("run_type", runType);
    objects("processed", "Objects a run profile's run processed", systemTag, runTypeTag, processed);
    objects("added", "Objects a run added", systemTag, runTypeTag, added);
    objects("updated", "Objects a run updated", systemTag, runTypeTag, updated);
    objects("deleted", "Objects a run deleted", systemTag, runTypeTag, deleted);
    objects(
        "errors", "Objects a run could not process (error items)", systemTag, runTypeTag, errors);
  }

  private void objects(String what, String description, String system, String runType, long n) {
    Counter.builder("jimflow.objects." + what)
        .description(description + ", by connected system and run type")
        .tag("system", system)
        .tag("run_type", runType)
        .register(registry)
        .increment(Math.max(0, n));
  }

  /** How many exports wait for the connected system now. */
  public void pendingExports(String system, long count) {
    gauge(
            "jimflow.pending.exports",
            "Exports waiting for a connected system's next export run, as of the last run that"
                + " touched it",
            "system",
            bounded("system", system))
        .set(Math.max(0, count));
  }

  /** A step waited this long for the resources it needed (its connected system, the metaverse). */
  public void lockWaited(String schedule, String system, Duration waited) {
    if (waited == null || waited.isNegative()) {
      return;
    }
    Timer.builder("jimflow.resource.lock.wait")
        .description(
            "How long RunProfile steps waited for their connected system (and the metaverse) held"
                + " by another run, by schedule and connected system")
        .tag("schedule", bounded("schedule", schedule))
        .tag("system", bounded("system", system))
        .register(registry)
        .record(waited);
  }

  /** Housekeeping ended {@code count} records whose execution had gone without ending them. */
  public void strandedSwept(String kind, long count) {
    Counter.builder("jimflow.stranded.records.swept")
        .description(
            "Records housekeeping ended because the execution that owned them was gone, by kind")
        .tag("kind", kind)
        .register(registry)
        .increment(Math.max(0, count));
  }

  /** A schedule as Temporal describes it now (its spec, state and what it did). */
  public void schedule(ScheduleState state) {
    String schedule = bounded("schedule", state.id());
    if (state.runsExecutions()) {
      executionCountersOf(state.id());
    }
    scheduleGauge(
        "jimflow.schedule.paused",
        "1 while the schedule is paused",
        schedule,
        state.paused() ? 1 : 0);
    scheduleGauge(
        "jimflow.schedule.created.timestamp.seconds",
        "When the schedule was created, in seconds since the epoch",
        schedule,
        seconds(state.createdAt()));
    scheduleGauge(
        "jimflow.schedule.next.run.timestamp.seconds",
        "The schedule's next nominal run, in seconds since the epoch (0: none)",
        schedule,
        seconds(state.nextRun()));
    scheduleGauge(
        "jimflow.schedule.last.scheduled.run.timestamp.seconds",
        "The nominal time of the last run the schedule started, in seconds since the epoch (0:"
            + " none)",
        schedule,
        seconds(state.lastScheduledRun()));
    scheduleGauge(
        "jimflow.schedule.interval.seconds",
        "The longest gap between the schedule's upcoming runs, from its spec (0: fewer than two)",
        schedule,
        state.interval() == null ? 0 : state.interval().getSeconds());
    scheduleGauge(
        "jimflow.schedule.runs.skipped",
        "Scheduled runs Temporal skipped since the schedule was created, because the previous run"
            + " was still going",
        schedule,
        state.skipped());
    scheduleGauge(
        "jimflow.schedule.runs.missed",
        "Scheduled runs Temporal missed since the schedule was created, because it could not start"
            + " them within the catch-up window",
        schedule,
        state.missed());
  }

  private void scheduleGauge(String name, String description, String schedule, long value) {
    gauge(name, description, "schedule", schedule).set(value);
  }

  private static long seconds(Instant instant) {
    return instant == null ? 0 : instant.getEpochSecond();
  }

  /** How many workers Temporal saw poll the task queue for this kind of task lately. */
  public void taskQueuePollers(String taskQueue, String type, int pollers) {
    String key = "jimflow.task.queue.pollers\0" + taskQueue + "\0" + type;
    gauges
        .computeIfAbsent(
            key,
            k -> {
              AtomicLong holder = new AtomicLong();
              Gauge.builder("jimflow.task.queue.pollers", holder, AtomicLong::doubleValue)
                  .description(
                      "Workers Temporal saw poll the task queue lately (0: what is started there"
                          + " waits)")
                  .tag("task_queue", bounded("task_queue", taskQueue))
                  .tag("type", type)
                  .register(registry);
              return holder;
            })
        .set(pollers);
  }

  /**
   * The executions that wait for an approval now, by schedule: how many, and since when the oldest
   * of their steps waits (the gauge reports its age when read). A schedule not named waits for
   * none: its gauges go to 0.
   */
  public void approvalsWaiting(Map<String, ApprovalWaits.Waiting> bySchedule) {
    Map<String, Long> executions = new HashMap<>();
    Map<String, Long> oldest = new HashMap<>();
    bySchedule.forEach(
        (schedule, waiting) -> {
          String tag = bounded("schedule", schedule);
          executions.merge(tag, waiting.executions(), Long::sum);
          long since = waiting.oldestSince() == null ? 0 : waiting.oldestSince().toEpochMilli();
          oldest.merge(tag, since, (a, b) -> a == 0 ? b : b == 0 ? a : Math.min(a, b));
        });
    for (String tag : approvalsSince.keySet()) {
      executions.putIfAbsent(tag, 0L);
      oldest.putIfAbsent(tag, 0L);
    }
    executions.forEach((tag, count) -> approvalGauges(tag).set(count));
    oldest.forEach((tag, since) -> approvalsSince.get(tag).set(since));
  }

  /** Registers a schedule's approval gauges (at 0 when new) and returns its executions count. */
  private AtomicLong approvalGauges(String scheduleTag) {
    approvalsSince.computeIfAbsent(
        scheduleTag,
        tag -> {
          AtomicLong since = new AtomicLong();
          Gauge.builder(
                  "jimflow.approvals.waiting.oldest.seconds",
                  since,
                  s -> s.get() == 0 ? 0 : Math.max(0, clock.millis() - s.get()) / 1000.0)
              .description(
                  "How long the schedule's oldest step waiting for a person's approval has waited"
                      + " (0: none waits)")
              .tag("schedule", tag)
              .register(registry);
          return since;
        });
    return gauge(
        "jimflow.executions.awaiting.approval",
        "Executions of the schedule with a step waiting for a person's approval",
        "schedule",
        scheduleTag);
  }

  /**
   * Registers the execution counters of a schedule at zero, so that its first failure is an
   * increase Prometheus sees (a counter that appears at 1 has not increased).
   */
  public void executionCountersOf(String schedule) {
    String scheduleTag = bounded("schedule", schedule);
    approvalGauges(scheduleTag);
    for (String trigger : List.of("Scheduled", "Manual")) {
      started(scheduleTag, trigger);
      for (String status : List.of("Complete", "CompleteWithError", "Failed", "Cancelled")) {
        ended(scheduleTag, trigger, status);
      }
    }
  }

  private Counter started(String schedule, String trigger) {
    return Counter.builder("jimflow.executions.started")
        .description("Schedule executions started, by schedule and trigger (Scheduled, Manual)")
        .tag("schedule", schedule)
        .tag("trigger", trigger)
        .register(registry);
  }

  private Counter ended(String schedule, String trigger, String status) {
    return Counter.builder("jimflow.executions.ended")
        .description(
            "Schedule executions ended, by schedule, trigger and status (Complete,"
                + " CompleteWithError, Failed, Cancelled)")
        .tag("schedule", schedule)
        .tag("trigger", trigger)
        .tag("status", status)
        .register(registry);
  }

  /** How many work items are in {@code state} now. */
  public void workItems(String state, long count) {
    gauge("jimflow.work.items", "Open work items by state", "state", bounded("state", state))
        .set(Math.max(0, count));
  }

  private AtomicLong gauge(String name, String description, String tag, String value) {
    return gauges.computeIfAbsent(
        name + '\0' + tag + '\0' + value,
        key -> {
          AtomicLong holder = new AtomicLong();
          Gauge.builder(name, holder, AtomicLong::doubleValue)
              .description(description)
              .tag(tag, value)
              .register(registry);
          return holder;
        });
  }

  /**
   * {@code value} as a tag value: {@link #OTHER} when blank, too long, or new once the tag already
   * has {@link #MAXIMUM_TAG_VALUES} values.
   */
  String bounded(String tag, String value) {
    if (value == null || value.isBlank() || value.length() > MAXIMUM_TAG_LENGTH) {
      return OTHER;
    }
    Map<String, Boolean> seen = seenValues.computeIfAbsent(tag, t -> new ConcurrentHashMap<>());
    if (seen.containsKey(value)) {
      return value;
    }
    synchronized (seen) {
      if (seen.size() >= MAXIMUM_TAG_VALUES) {
        return OTHER;
      }
      seen.put(value, Boolean.TRUE);
      return value;
    }
  }
}
