package io.jimflow.schedule;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Execution record writes kept in memory as the store keeps them: the execution's fields of the
 * highest revision, every step record written.
 */
public final class RecordingExecutionRecords implements ExecutionRecordActivities {

  private final Map<String, ExecutionRecordWrite> latest = new ConcurrentHashMap<>();
  private final Map<String, Map<Integer, StepRecord>> steps = new ConcurrentHashMap<>();
  private final List<ExecutionRecordWrite> writes = new ArrayList<>();

  @Override
  public synchronized void recordExecution(ExecutionRecordWrite write) {
    writes.add(write);
    String id = write.execution().executionId();
    latest.merge(id, write, (old, now) -> now.revision() > old.revision() ? now : old);
    Map<Integer, StepRecord> byPosition = steps.computeIfAbsent(id, k -> new TreeMap<>());
    write.execution().steps().forEach(s -> byPosition.put(s.position(), s));
  }

  /** The execution as the store would show it: its latest fields with every step written. */
  public synchronized ExecutionRecord stored(String executionId) {
    ExecutionRecordWrite write = latest.get(executionId);
    if (write == null) {
      return null;
    }
    return write
        .execution()
        .withSteps(List.copyOf(steps.getOrDefault(executionId, Map.of()).values()));
  }

  public synchronized List<ExecutionRecordWrite> writes() {
    return List.copyOf(writes);
  }
}
