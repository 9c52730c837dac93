package io.jimflow.dataplane;

import io.jimflow.schedule.steps.StepProgress;
import io.temporal.client.ActivityCanceledException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A StepProgress that keeps every report and can make the worker "die", or the step's cancel reach
 * it, after a number of them.
 */
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
  private final int cancelledAfterReports;
  private int dieAfterCheckpoints = Integer.MAX_VALUE;
  private String last;

  RecordingProgress() {
    this(Integer.MAX_VALUE, null);
  }

  RecordingProgress(int dieAfterReports, String lastCheckpoint) {
    this(dieAfterReports, Integer.MAX_VALUE, lastCheckpoint);
  }

  private RecordingProgress(int dieAfterReports, int cancelledAfterReports, String lastCheckpoint) {
    this.dieAfterReports = dieAfterReports;
    this.cancelledAfterReports = cancelledAfterReports;
    this.last = lastCheckpoint;
  }

  /**
   * Progress whose {@code reports}th report learns that the step was cancelled, as a heartbeat
   * does: it throws the SDK's {@link ActivityCanceledException}.
   */
  static RecordingProgress cancelledAfter(int reports) {
    return new RecordingProgress(Integer.MAX_VALUE, reports, null);
  }

  /**
   * Progress whose worker dies at the {@code checkpoints}th report that carries a checkpoint (a
   * committed page), whatever heartbeats without one came before.
   */
  static RecordingProgress dyingAfterCheckpoints(int checkpoints) {
    RecordingProgress progress = new RecordingProgress();
    progress.dieAfterCheckpoints = checkpoints;
    return progress;
  }

  @Override
  public void report(long processedSoFar, long total, String checkpoint) {
    processed.add(processedSoFar);
    if (checkpoint != null) {
      checkpoints.add(checkpoint);
      last = checkpoint;
    }
    if (processed.size() >= dieAfterReports || checkpoints.size() >= dieAfterCheckpoints) {
      throw new WorkerDied();
    }
    if (processed.size() >= cancelledAfterReports) {
      throw new ActivityCanceledException();
    }
  }

  @Override
  public Optional<String> lastCheckpoint() {
    return Optional.ofNullable(last);
  }
}
