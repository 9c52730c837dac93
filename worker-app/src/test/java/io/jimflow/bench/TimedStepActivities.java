package io.jimflow.bench;

import io.jimflow.schedule.AbandonStepRequest;
import io.jimflow.schedule.StepActivities;
import io.jimflow.schedule.StepRunRequest;
import io.jimflow.schedule.StepRunResult;
import io.jimflow.schedule.StepStatus;
import io.temporal.activity.Activity;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Steps that do nothing but note when they start and end (worker clock, nanoseconds), so the
 * benchmark sees only what orchestration costs.
 */
final class TimedStepActivities implements StepActivities {

  record Span(
      String workflowId, int position, long startNanos, long endNanos, long startEpochMillis) {}

  final Map<String, List<Span>> spans = new ConcurrentHashMap<>();

  @Override
  public StepRunResult runStep(StepRunRequest request) {
    long start = System.nanoTime();
    long startMillis = System.currentTimeMillis();
    String workflowId = Activity.getExecutionContext().getInfo().getWorkflowId();
    long end = System.nanoTime();
    spans
        .computeIfAbsent(workflowId, id -> new CopyOnWriteArrayList<>())
        .add(new Span(workflowId, request.position(), start, end, startMillis));
    return new StepRunResult(StepStatus.Complete, 1, null, Map.of(), null);
  }

  @Override
  public String abandonStep(AbandonStepRequest request) {
    return null;
  }
}
