package io.jimflow.schedule.steps;

import java.util.Optional;

/**
 * A step's line to Temporal: heartbeats with progress and a checkpoint, and the checkpoint a lost
 * earlier attempt left behind.
 */
public interface StepProgress {

  /**
   * Records progress and a checkpoint in the activity's heartbeat. Throws {@code
   * ActivityCompletionException} when the step has been cancelled or its worker is shutting down;
   * callers let it propagate.
   *
   * @param processed objects (or units) processed so far
   * @param total objects to process, or -1 when not known yet
   * @param checkpoint where a retried attempt should resume; null keeps the previous one
   */
  void report(long processed, long total, String checkpoint);

  /** The last checkpoint recorded by this step, in this attempt or a lost earlier one. */
  Optional<String> lastCheckpoint();
}
