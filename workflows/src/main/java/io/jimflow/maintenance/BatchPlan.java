package io.jimflow.maintenance;

import io.jimflow.schedule.Bounded;

/**
 * How deletions are cut into short transactions: at most {@code batchSize} rows each, until a batch
 * deletes fewer than that.
 */
public record BatchPlan(int batchSize) {

  public static final int DEFAULT_BATCH_SIZE = 1_000;
  public static final int MAX_BATCH_SIZE = 50_000;

  public BatchPlan {
    if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
      throw new IllegalArgumentException(
          "batch size must be between 1 and " + MAX_BATCH_SIZE + ", not " + batchSize);
    }
  }

  /** The plan for a requested size, the default when none is requested. */
  public static BatchPlan of(Integer requested, int configuredDefault) {
    return new BatchPlan(requested != null ? requested : configuredDefault);
  }

  /**
   * The plan for a size a workflow input asks for: at most the worker's configured size (a larger
   * one is clamped, with a note saying so), the worker's when none is asked for.
   */
  public static Bounded<BatchPlan> bounded(Integer requested, int workerSize) {
    if (requested != null && requested > workerSize) {
      return new Bounded<>(
          new BatchPlan(workerSize),
          "batch size " + requested + " clamped to the worker's maximum " + workerSize);
    }
    return Bounded.kept(of(requested, workerSize));
  }

  /** Whether another batch may find rows: only a full batch leaves some behind. */
  public boolean moreAfter(int deletedInBatch) {
    return deletedInBatch >= batchSize;
  }
}
