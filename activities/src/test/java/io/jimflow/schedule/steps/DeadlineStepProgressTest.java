package io.jimflow.schedule.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jimflow.schedule.StepFailures;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A RunProfile step's deadline, checked at each report of its connectors. */
class DeadlineStepProgressTest {

  @ParameterizedTest(name = "report {0} after the attempt began, timeout 1h -> stopped: {1}")
  @CsvSource({"PT0S, false", "PT59M, false", "PT1H, false", "PT1H0.001S, true", "P2D, true"})
  void aReportPastTheDeadlineEndsTheStepNamingItsTime(Duration elapsed, boolean stopped) {
    AtomicLong now = new AtomicLong(1_000);
    List<String> reported = new ArrayList<>();
    DeadlineStepProgress progress =
        new DeadlineStepProgress(recording(reported), "Import HR", Duration.ofHours(1), now::get);
    now.addAndGet(elapsed.toNanos());

    ApplicationFailure failure =
        catchThrowableOfType(ApplicationFailure.class, () -> progress.report(300, 1000, "page-3"));

    // The page's progress is heartbeated either way: a retry never redoes committed work.
    assertThat(reported).containsExactly("page-3");
    if (stopped) {
      assertThat(failure.getOriginalMessage())
          .isEqualTo(
              "Step 'Import HR' ran longer than 1h and was stopped after 300 of 1000 objects");
      assertThat(failure.getType()).isEqualTo(StepFailures.RUN_PROFILE_TIMED_OUT);
      assertThat(failure.isNonRetryable()).isTrue();
    } else {
      assertThat(failure).isNull();
    }
  }

  private static StepProgress recording(List<String> reported) {
    return new StepProgress() {
      @Override
      public void report(long processed, long total, String checkpoint) {
        reported.add(checkpoint);
      }

      @Override
      public Optional<String> lastCheckpoint() {
        return Optional.empty();
      }
    };
  }
}
