package io.jimflow.schedule;

import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Step activities whose behaviour each test scripts per step name; by default a step completes at
 * once. Records what ran, how often, how many at once, and what was abandoned.
 */
final class FakeStepActivities implements StepActivities {

  /** What one attempt of a step does. */
  @FunctionalInterface
  interface Behaviour {
    StepRunResult run(StepRunRequest request, ActivityExecutionContext context) throws Exception;
  }

  private final Map<String, Behaviour> behaviours = new ConcurrentHashMap<>();
  final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
  final List<String> started = new CopyOnWriteArrayList<>();
  final List<String> ended = new CopyOnWriteArrayList<>();
  final List<String> cancelled = new CopyOnWriteArrayList<>();
  final List<AbandonStepRequest> abandoned = new CopyOnWriteArrayList<>();
  final AtomicInteger concurrent = new AtomicInteger();
  final AtomicInteger maxConcurrent = new AtomicInteger();

  FakeStepActivities on(String stepName, Behaviour behaviour) {
    behaviours.put(stepName, behaviour);
    return this;
  }

  @Override
  public StepRunResult runStep(StepRunRequest request) {
    ActivityExecutionContext context = Activity.getExecutionContext();
    String name = request.step().name();
    int attempt = context.getInfo().getAttempt();
    attempts.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
    if (attempt > 1) {
      context
          .getWorkflowClient()
          .newUntypedWorkflowStub(context.getInfo().getWorkflowId())
          .signal(
              ScheduleExecutionWorkflow.STEP_ATTEMPT_STARTED,
              new StepAttempt(request.position(), attempt));
    }
    started.add(name);
    maxConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
    try {
      Behaviour behaviour = behaviours.getOrDefault(name, (r, c) -> complete(c, "done"));
      return behaviour.run(request, context);
    } catch (io.temporal.client.ActivityCompletionException e) {
      cancelled.add(name);
      throw e;
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      concurrent.decrementAndGet();
      ended.add(name);
    }
  }

  /** A preview naming the definition's steps as run, with one system that would hold. */
  @Override
  public SchedulePreview previewSchedule(PreviewRequest request) {
    return new SchedulePreview(
        request.definition().id(),
        request.definition().steps().stream()
            .map(s -> new SchedulePreview.StepPreview(s.name(), StepStatus.Complete, null))
            .toList(),
        List.of(
            new SchedulePreview.SystemPreview(
                "Directory",
                SchedulePreview.Counts.NONE,
                new SchedulePreview.Counts(1, 3, 0),
                List.of(),
                List.of("Update E1"),
                List.of(
                    new ChangeSample(
                        "Update",
                        "E1",
                        List.of(new ChangeSample.AttributeChange("title", "Engineer", "Architect")),
                        0)),
                List.of())),
        List.of());
  }

  @Override
  public String abandonStep(AbandonStepRequest request) {
    abandoned.add(request);
    return "run-record-of-" + request.run().step().name();
  }

  static StepRunResult complete(ActivityExecutionContext context, String message) {
    return new StepRunResult(
        StepStatus.Complete,
        context.getInfo().getAttempt(),
        message,
        Map.of("processed", 1L),
        null);
  }

  static Behaviour completes() {
    return (r, c) -> complete(c, "done");
  }

  static Behaviour endsWith(StepStatus status, String message) {
    return (r, c) -> new StepRunResult(status, c.getInfo().getAttempt(), message, null, null);
  }

  static Behaviour fails(String message) {
    return (r, c) -> {
      throw ApplicationFailure.newFailure(
          message, StepFailures.STEP_FAILED, new StepFailureDetails(c.getInfo().getAttempt()));
    };
  }

  static Behaviour failsWithConfigurationError(String message) {
    return (r, c) -> {
      throw ApplicationFailure.newNonRetryableFailure(
          message,
          StepFailures.CONFIGURATION_ERROR,
          new StepFailureDetails(c.getInfo().getAttempt()));
    };
  }

  /** Heartbeats every 200 ms until released, cancelled, or {@code max} has passed. */
  static Behaviour runsUntil(CountDownLatch release, Duration max) {
    return (r, c) -> {
      long deadline = System.nanoTime() + max.toNanos();
      while (!release.await(200, TimeUnit.MILLISECONDS) && System.nanoTime() < deadline) {
        c.heartbeat(new StepHeartbeat(0, -1, null, c.getInfo().getAttempt()));
      }
      return complete(c, "released");
    };
  }

  /** Works for {@code duration} without heartbeating, then completes. */
  static Behaviour sleeps(Duration duration) {
    return (r, c) -> {
      Thread.sleep(duration.toMillis());
      return complete(c, "slept");
    };
  }

  static Optional<StepHeartbeat> lastHeartbeat(ActivityExecutionContext context) {
    return context.getHeartbeatDetails(StepHeartbeat.class);
  }
}
