package io.jimflow.exampledata;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Writes example data; heartbeats its progress ({@link Progress}), visible in the Temporal UI. */
@ActivityInterface
public interface DataGenerationActivities {

  /** Failure type: this worker has no example data generator. */
  String NO_GENERATOR = "NoExampleDataGenerator";

  /** Failure type: the request names a file outside the data directory, or too many people. */
  String BAD_REQUEST = "BadExampleDataRequest";

  /**
   * Generates the file from scratch (a retry starts over; the file appears only once complete).
   *
   * @param request {@code seed} is never null here
   */
  @ActivityMethod(name = "GenerateExampleData")
  DataGenerationResult generate(DataGenerationInput request);

  /** The heartbeat details: rows written of rows asked for. */
  record Progress(long written, long total) {}
}
