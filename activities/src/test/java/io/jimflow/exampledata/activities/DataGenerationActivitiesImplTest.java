package io.jimflow.exampledata.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jimflow.exampledata.DataGenerationActivities;
import io.jimflow.exampledata.DataGenerationActivities.Progress;
import io.jimflow.exampledata.DataGenerationInput;
import io.jimflow.exampledata.DataGenerationResult;
import io.temporal.activity.ActivityOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.testing.TestActivityEnvironment;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataGenerationActivitiesImplTest {

  @TempDir Path home;

  private final List<Progress> heartbeats = new CopyOnWriteArrayList<>();
  private TestActivityEnvironment env;

  @BeforeEach
  void open() {
    env = TestActivityEnvironment.newInstance();
    env.setActivityHeartbeatListener(Progress.class, heartbeats::add);
  }

  @AfterEach
  void close() {
    env.close();
  }

  /** Writes one line per person, reporting every 100; optionally pauses per report. */
  private static ExampleDataWriter lines(long pauseMillis) {
    return (people, out, seed, written) -> {
      try (BufferedWriter writer = Files.newBufferedWriter(out)) {
        for (int i = 1; i <= people; i++) {
          writer.write("person-" + seed + "-" + i + "\n");
          if (i % 100 == 0) {
            written.accept(i);
            if (pauseMillis > 0) {
              Thread.sleep(pauseMillis);
            }
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return people;
    };
  }

  private DataGenerationActivities stub() {
    return env.newActivityStub(
        DataGenerationActivities.class,
        ActivityOptions.newBuilder()
            .setStartToCloseTimeout(Duration.ofSeconds(60))
            .setHeartbeatTimeout(Duration.ofSeconds(1))
            .build());
  }

  @Test
  void generationHeartbeatsItsProgressUpToTheTotalAndWritesTheFileRelativeToHome()
      throws Exception {
    env.registerActivitiesImplementations(
        new DataGenerationActivitiesImpl(Optional.of(lines(0)), home));

    DataGenerationResult result =
        stub().generate(new DataGenerationInput(1_000, "data/hr.csv", 7L, null));

    assertThat(result.peopleWritten()).isEqualTo(1_000);
    assertThat(Path.of(result.outFile())).isEqualTo(home.resolve("data/hr.csv"));
    assertThat(Files.readAllLines(home.resolve("data/hr.csv")))
        .hasSize(1_000)
        .startsWith("person-7-1");
    assertThat(heartbeats).isNotEmpty();
    assertThat(heartbeats).allSatisfy(p -> assertThat(p.total()).isEqualTo(1_000));
    // Heartbeats are throttled: those that reach the server count up towards the total.
    assertThat(heartbeats)
        .extracting(Progress::written)
        .isSorted()
        .allSatisfy(w -> assertThat(w).isBetween(0L, 1_000L));
  }

  @Test
  void cancellingGenerationStopsTheGenerator() throws Exception {
    env.registerActivitiesImplementations(
        new DataGenerationActivitiesImpl(Optional.of(lines(100)), home));

    CompletableFuture<RuntimeException> outcome =
        CompletableFuture.supplyAsync(
            () ->
                catchThrowableOfType(
                    RuntimeException.class,
                    () ->
                        stub()
                            .generate(
                                new DataGenerationInput(1_000_000, "data/big.csv", 1L, null))));
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (heartbeats.size() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    env.requestCancelActivity();

    RuntimeException failure = outcome.get(30, TimeUnit.SECONDS);
    assertThat(failure instanceof CanceledFailure || failure.getCause() instanceof CanceledFailure)
        .as("ended by cancellation: %s", failure)
        .isTrue();
    assertThat(heartbeats.get(heartbeats.size() - 1).written()).isLessThan(1_000_000);
  }

  @Test
  void anOutputFileOutsideTheDataDirectoryFailsWithoutRetryAndWritesNothing(@TempDir Path elsewhere)
      throws Exception {
    Files.createDirectories(home.resolve("data"));
    Files.createSymbolicLink(home.resolve("data/link"), elsewhere);
    env.registerActivitiesImplementations(
        new DataGenerationActivitiesImpl(Optional.of(lines(0)), home));

    for (String hostile :
        List.of(
            elsewhere.resolve("hr.csv").toString(),
            "x.csv",
            "data/../config/connected-systems.yaml",
            "data/link/hr.csv",
            "data/link/sub/hr.csv",
            "data")) {
      RuntimeException failure =
          catchThrowableOfType(
              RuntimeException.class,
              () -> stub().generate(new DataGenerationInput(10, hostile, 1L, null)));
      assertThat(failure.getCause())
          .as(hostile)
          .isInstanceOf(ApplicationFailure.class)
          .hasMessageContaining("outFile '" + hostile + "'");
    }
    assertThat(heartbeats).as("nothing was started").isEmpty();
    try (var left = Files.walk(elsewhere)) {
      assertThat(left.filter(p -> !p.equals(elsewhere)).toList()).isEmpty();
    }
    assertThat(home.resolve("x.csv")).doesNotExist();
    assertThat(home.resolve("config")).doesNotExist();
  }

  @Test
  void aWorkerWithoutAGeneratorRefusesWithoutRetrying() {
    env.registerActivitiesImplementations(new DataGenerationActivitiesImpl(Optional.empty(), home));

    RuntimeException failure =
        catchThrowableOfType(
            RuntimeException.class,
            () -> stub().generate(new DataGenerationInput(10, "x.csv", 1L, null)));

    assertThat(failure).hasRootCauseInstanceOf(ApplicationFailure.class);
    assertThat(failure.getCause())
        .hasMessageContaining("this worker has no example data generator");
  }
}
