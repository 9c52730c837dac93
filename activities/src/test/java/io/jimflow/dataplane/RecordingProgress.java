package io.jimflow.dataplane;

import io.jimflow.steps.StepProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A StepProgress that keeps every report and can make the worker "die" after a number of them. */
final class RecordingProgress implements StepProgress {

  /** Stands for a worker that vanished mid-run: nothing in the executor may catch it. */
  static final class WorkerDied extends Error {
    WorkerDied() {
      super("worker died");
    }
  }

  final List<String> checkpoints = new ArrayList<>();
  final List<Long> processed = new ArrayList<>();
  private final int dieAfterReports;
  private String last;

  RecordingProgress() {
    this(Integer.MAX_VALUE, null);
  }

  RecordingProgress(int dieAfterReports, String lastCheckpoint) {
    this.dieAfterReports = dieAfterReports;
    this.last = lastCheckpoint;
  }

  @Override
  public void report(long processedSoFar, long total, String checkpoint) {
    processed.add(processedSoFar);
    if (checkpoint != null) {
      checkpoints.add(checkpoint);
      last = checkpoint;
    }
    if (processed.size() >= dieAfterReports) {
      throw new WorkerDied();
    }
  }

  @Override
  public Optional<String> lastCheckpoint() {
    return Optional.ofNullable(last);
  }
}
