package io.jimflow.workitem.activities;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.temporal.client.ActivityCompletionException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A test kind whose behaviour its state chooses ({@code "mode"}), recording every run and every
 * WorkItemFinished call so tests can assert what a program would notice.
 */
final class ScriptedHandler implements WorkItemHandler {

  static final String KIND = "scripted";
  private static final ObjectMapper JSON = new ObjectMapper();

  record Run(String guid, int instance, String stateAtStart) {}

  final List<Run> runs = new CopyOnWriteArrayList<>();
  final List<WorkItemFinishedContext> finished = new CopyOnWriteArrayList<>();
  final List<WorkItemRunContext.FinishReason> reasons = new CopyOnWriteArrayList<>();

  /** Counted down when the test ends: handlers still running then return. */
  final CountDownLatch release = new CountDownLatch(1);

  /**
   * While set, running handlers neither save progress, nor look at shouldFinish, nor return: a long
   * step between two saves. Tests hold them while they move the server's clock.
   */
  private volatile boolean held;

  /** Set by a test: handlers in mode {@code "heartbeatUntilStopped"} stop heartbeating, as dead. */
  volatile boolean stopHeartbeats;

  /** Opened by a test: WorkItemFinished of an item with {@code "finishedWaits"} returns. */
  final CountDownLatch finishedGate = new CountDownLatch(1);

  /** A store the handlers write to through their context's fence ({@code "guid:what"}). */
  final List<String> store = new CopyOnWriteArrayList<>();

  /** Writes the fence refused, in order. */
  final List<WorkItemFencedException> refused = new CopyOnWriteArrayList<>();

  /** {@code "run:guid"} / {@code "finished:guid"} for every handler call that was interrupted. */
  final List<String> interrupted = new CopyOnWriteArrayList<>();

  /** Progress saves of every run so far. */
  final AtomicInteger steps = new AtomicInteger();

  private final Supplier<Instant> clock;

  ScriptedHandler(Supplier<Instant> clock) {
    this.clock = clock;
  }

  static String state(String mode, Object... keyValues) {
    ObjectNode n = JSON.createObjectNode().put("mode", mode).put("step", 0);
    for (int i = 0; i < keyValues.length; i += 2) {
      n.putPOJO((String) keyValues[i], keyValues[i + 1]);
    }
    return n.toString();
  }

  static int step(String stateJson) {
    try {
      return JSON.readTree(stateJson).path("step").asInt();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  void hold() {
    held = true;
  }

  void letGo() {
    held = false;
  }

  /** Waits a moment; false once the test has ended. */
  private boolean tick() throws InterruptedException {
    return !release.await(20, TimeUnit.MILLISECONDS);
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public WorkItemRunOutcome run(WorkItemRunContext context) throws Exception {
    runs.add(new Run(context.guid(), context.instance(), context.state()));
    ObjectNode s = (ObjectNode) JSON.readTree(context.state());
    String mode = s.path("mode").asText();
    switch (mode) {
      case "complete" -> {
        s.put("step", s.path("step").asInt() + 1);
        context.saveProgress(s.toString());
        return WorkItemRunOutcome.done(s.toString());
      }
      case "untilAsked" -> {
        // Works (a step every 20 ms) until asked to finish or the test ends.
        int doneAt = s.path("doneAt").asInt(Integer.MAX_VALUE);
        while (tick()) {
          if (held) {
            continue;
          }
          if (context.shouldFinish()) {
            reasons.add(context.finishReason());
            return WorkItemRunOutcome.stopped(s.toString());
          }
          save(context, s);
          if (s.path("step").asInt() >= doneAt) {
            return WorkItemRunOutcome.done(s.toString());
          }
        }
        throw new IllegalStateException("never asked to finish before the test ended");
      }
      case "untilCancelled" -> {
        // Asked to finish for any other reason, it works on: only a cancel ends it.
        while (tick()) {
          if (held) {
            continue;
          }
          if (context.finishReason() == WorkItemRunContext.FinishReason.CANCELLED) {
            reasons.add(context.finishReason());
            return WorkItemRunOutcome.stopped(s.toString());
          }
          save(context, s);
        }
        throw new IllegalStateException("never cancelled before the test ended");
      }
      case "failWhenAsked" -> {
        while (tick()) {
          if (!held && context.shouldFinish()) {
            reasons.add(context.finishReason());
            throw new IllegalStateException("broke while finishing");
          }
        }
        throw new IllegalStateException("never asked to finish before the test ended");
      }
      case "heartbeatUntilStopped" -> {
        // Saves progress (each save heartbeats) until the test stops it, then hangs like a dead
        // process: the run worker's watcher must not heartbeat for it (a long watch interval).
        while (tick() && !stopHeartbeats) {
          save(context, s);
        }
        release.await(120, TimeUnit.SECONDS);
        return WorkItemRunOutcome.stopped(s.toString());
      }
      case "successorWhenAsked" -> {
        while (tick()) {
          if (held) {
            continue;
          }
          if (context.shouldFinish()) {
            break;
          }
          save(context, s);
        }
        return WorkItemRunOutcome.successorAt(clock.get().plus(Duration.ofHours(1)), s.toString());
      }
      case "ignore" -> {
        // Keeps saving progress but never looks at shouldFinish: ends only when abandoned.
        while (tick()) {
          if (!held) {
            save(context, s);
          }
        }
        return WorkItemRunOutcome.stopped(s.toString());
      }
      case "writeIgnoring" -> {
        // Ignores should-finish and loops writing; swallows refused writes (a careless handler
        // that logs and goes on). Interrupted, it tries one more write, then stops, unless
        // "ignoreInterrupt" says it ignores that too.
        boolean ignoreInterrupt = s.path("ignoreInterrupt").asBoolean();
        boolean wasInterrupted = false;
        while (true) {
          try {
            if (!tick()) {
              return WorkItemRunOutcome.stopped(s.toString());
            }
          } catch (InterruptedException e) {
            if (!wasInterrupted) {
              interrupted.add("run:" + context.guid());
              wasInterrupted = true;
            }
            write(context, "after-interrupt");
            if (!ignoreInterrupt) {
              throw e;
            }
          }
          if (!held) {
            s.put("step", s.path("step").asInt() + 1);
            write(context, "step-" + s.path("step").asInt());
          }
        }
      }
      case "hang" -> {
        if (context.instance() > s.path("hangInstances").asInt(Integer.MAX_VALUE)) {
          return WorkItemRunOutcome.done(s.toString());
        }
        // Saves progress once, then neither heartbeats nor returns: what a crashed worker looks
        // like.
        s.put("step", s.path("step").asInt() + 1);
        context.saveProgress(s.toString());
        release.await(60, TimeUnit.SECONDS);
        return WorkItemRunOutcome.stopped(s.toString());
      }
      case "fail" -> {
        if (context.instance() <= s.path("failTimes").asInt(Integer.MAX_VALUE)) {
          throw new IllegalStateException("boom in instance " + context.instance());
        }
        return WorkItemRunOutcome.done(s.toString());
      }
      case "recurring" -> {
        s.put("step", s.path("step").asInt() + 1);
        if (s.path("step").asInt() >= s.path("stopAfter").asInt()) {
          return WorkItemRunOutcome.done(s.toString());
        }
        Duration every = Duration.ofSeconds(s.path("everySeconds").asLong(3600));
        return WorkItemRunOutcome.successorAt(clock.get().plus(every), s.toString());
      }
      default -> throw new IllegalArgumentException("unknown mode " + mode);
    }
  }

  /** A write through the context's fence; a refusal is recorded and swallowed. */
  private void write(WorkItemRunContext context, String what) {
    try {
      context.write(() -> store.add(context.guid() + ":" + what));
    } catch (WorkItemFencedException e) {
      refused.add(e);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  List<String> storeOf(String guid) {
    return store.stream().filter(w -> w.startsWith(guid + ":")).toList();
  }

  private void save(WorkItemRunContext context, ObjectNode s) throws Exception {
    s.put("step", s.path("step").asInt() + 1);
    context.saveProgress(s.toString());
    steps.incrementAndGet();
  }

  @Override
  public void finished(WorkItemFinishedContext context) throws Exception {
    finished.add(context);
    if (JSON.readTree(context.state()).path("finishedWaits").asBoolean()
        && !finishedGate.await(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the test never let WorkItemFinished return");
    }
    if (JSON.readTree(context.state()).path("finishedOverruns").asBoolean()) {
      // Overruns its limit; interrupted, it tries a write before it gives up.
      try {
        release.await(60, TimeUnit.SECONDS);
        throw new IllegalStateException("WorkItemFinished was never interrupted");
      } catch (InterruptedException e) {
        interrupted.add("finished:" + context.guid());
        try {
          context.write(() -> store.add(context.guid() + ":finished-after-interrupt"));
        } catch (WorkItemFencedException refusedWrite) {
          refused.add(refusedWrite);
        }
        throw e;
      }
    }
    if (JSON.readTree(context.state()).path("failingFinished").asBoolean()) {
      throw new IllegalStateException("finished broke");
    }
  }

  List<WorkItemFinishedContext> finishedOf(String guid) {
    return finished.stream().filter(f -> f.guid().equals(guid)).toList();
  }

  List<Run> runsOf(String guid) {
    return runs.stream().filter(r -> r.guid().equals(guid)).toList();
  }

  static boolean abandoned(Throwable t) {
    return t instanceof ActivityCompletionException;
  }
}
