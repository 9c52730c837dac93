package io.jimflow.exampledata;

import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Runs the {@link ExampleDataWriter} in an activity, heartbeating its progress; cancellation
 * reaches the generator as the exception its progress callback throws.
 */
public final class DataGenerationActivitiesImpl implements DataGenerationActivities {

  private final Optional<ExampleDataWriter> generator;
  private final Path home;

  /**
   * @param generator absent in a worker without one: every request then fails non-retryably
   * @param home what relative output paths are resolved against
   */
  public DataGenerationActivitiesImpl(Optional<ExampleDataWriter> generator, Path home) {
    this.generator = generator;
    this.home = home;
  }

  @Override
  public DataGenerationResult generate(DataGenerationInput request) {
    ExampleDataWriter writer =
        generator.orElseThrow(
            () ->
                ApplicationFailure.newNonRetryableFailure(
                    "this worker has no example data generator", NO_GENERATOR));
    ActivityExecutionContext context = Activity.getExecutionContext();
    Path out = home.resolve(request.outFile()).toAbsolutePath().normalize();
    long total = request.people();
    context.heartbeat(new Progress(0, total));
    try {
      if (out.getParent() != null) {
        java.nio.file.Files.createDirectories(out.getParent());
      }
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
