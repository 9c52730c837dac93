package io.jimflow.exampledata.activities;

import io.jimflow.exampledata.DataGenerationActivities;
import io.jimflow.exampledata.DataGenerationInput;
import io.jimflow.exampledata.DataGenerationResult;
import io.jimflow.exampledata.DataGenerationWorkflow;
import io.jimflow.files.FileRoots;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Runs the {@link ExampleDataWriter} in an activity, heartbeating its progress; cancellation
 * reaches the generator as the exception its progress callback throws.
 */
public final class DataGenerationActivitiesImpl implements DataGenerationActivities {

  private final Optional<ExampleDataWriter> generator;
  private final FileRoots dataDirectory;

  /**
   * @param generator absent in a worker without one: every request then fails non-retryably
   * @param home what relative output paths are resolved against; files are written only below its
   *     {@code data} folder
   */
  public DataGenerationActivitiesImpl(Optional<ExampleDataWriter> generator, Path home) {
    this.generator = generator;
    Path base = home.toAbsolutePath().normalize();
    this.dataDirectory = new FileRoots(List.of(base.resolve("data")), "data directory", base);
  }

  @Override
  public DataGenerationResult generate(DataGenerationInput request) {
    ExampleDataWriter writer =
        generator.orElseThrow(
            () ->
                ApplicationFailure.newNonRetryableFailure(
                    "this worker has no example data generator", NO_GENERATOR));
    ActivityExecutionContext context = Activity.getExecutionContext();
    if (request.people() < 1 || request.people() > DataGenerationWorkflow.MAX_PEOPLE) {
      throw ApplicationFailure.newNonRetryableFailure(
          "people must be between 1 and "
              + DataGenerationWorkflow.MAX_PEOPLE
              + ", not "
              + request.people(),
          BAD_REQUEST);
    }
    // Below the data directory only, also after links are resolved; nothing has been written
    // when this refuses.
    Path out;
    try {
      out = dataDirectory.creatable("example data", "outFile", request.outFile());
    } catch (IllegalArgumentException refused) {
      throw ApplicationFailure.newNonRetryableFailure(refused.getMessage(), BAD_REQUEST);
    }
    long total = request.people();
    context.heartbeat(new Progress(0, total));
    try {
      long written =
          writer.generate(
              request.people(),
              out,
              request.seed(),
              soFar -> context.heartbeat(new Progress(soFar, total)));
      return new DataGenerationResult(out.toString(), written);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
    }
  }
}
