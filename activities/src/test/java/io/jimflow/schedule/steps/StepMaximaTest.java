package io.jimflow.schedule.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.schedule.Bounded;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepDefinition.Limits;
import io.jimflow.schedule.StepDefinition.RunProfileStep;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a step's definition may ask of a worker: the pure clamp decisions of {@link StepMaxima}. */
class StepMaximaTest {

  private static final StepMaxima SIX_HOURS_THREE_ATTEMPTS =
      new StepMaxima(Duration.ofHours(6), 3, 60L, 512L, 256);

  @ParameterizedTest(name = "attempt timeout {0} -> {1} ({2})")
  @CsvSource(
      nullValues = "null",
      value = {
        "PT1H,  PT1H, null",
        "PT6H,  PT6H, null",
        "PT6H0.001S, PT6H, timeout 6h1ms clamped to the worker's maximum 6h",
        "P7D,   PT6H, timeout 7d clamped to the worker's maximum 6h",
        "P3650D, PT6H, timeout 3650d clamped to the worker's maximum 6h"
      })
  void anAttemptRunsAtMostTheWorkersTimeout(Duration asked, Duration runs, String note) {
    StepMaxima.Bounds bounds = SIX_HOURS_THREE_ATTEMPTS.bound(executable(null), asked, 1);

    assertThat(bounds.timeout()).isEqualTo(runs);
    assertThat(bounds.notes()).isEqualTo(note == null ? List.of() : List.of(note));
    assertThat(bounds.refusal()).isNull();
  }

  @ParameterizedTest(name = "run profile attempt timeout {0} -> {1} ({2})")
  @CsvSource(
      nullValues = "null",
      value = {
        "PT1H, PT1H, null",
        "PT6H, PT6H, null",
        "P7D,  PT6H, timeout 7d clamped to the worker's maximum 6h"
      })
  void aRunProfileStepRunsAtMostTheWorkersTimeoutToo(Duration asked, Duration runs, String note) {
    StepDefinition step =
        new StepDefinition(
            0,
            "import",
            new RunProfileStep("HR", "Full Import"),
            null,
            null,
            null,
            null,
            null,
            null,
            null);

    StepMaxima.Bounds bounds = SIX_HOURS_THREE_ATTEMPTS.bound(step, asked, 1);

    assertThat(bounds.timeout()).isEqualTo(runs);
    assertThat(bounds.notes()).isEqualTo(note == null ? List.of() : List.of(note));
    assertThat(bounds.executable()).isNull();
  }

  @ParameterizedTest(name = "attempt {0} of at most 3 -> refused: {1}")
  @CsvSource({"1, false", "3, false", "4, true", "1000, true"})
  void anAttemptBeyondTheWorkersMaximumIsRefused(int attempt, boolean refused) {
    StepMaxima.Bounds bounds =
        SIX_HOURS_THREE_ATTEMPTS.bound(executable(null), Duration.ofMinutes(1), attempt);

    if (refused) {
      assertThat(bounds.refusal())
          .isEqualTo(
              "Step 'run' refused attempt "
                  + attempt
                  + ": this worker runs a step at most 3 times");
    } else {
      assertThat(bounds.refusal()).isNull();
    }
  }

  @ParameterizedTest(name = "limits {0}/{1}/{2} -> {3}/{4}/{5}")
  @CsvSource(
      nullValues = "null",
      value = {
        // asked cpu, memory, files; runs with cpu, memory, files; notes
        "10,   100,  10,   10, 100, 10,  ''",
        "60,   512,  256,  60, 512, 256, ''",
        "61,   100,  10,   60, 100, 10,  cpuSeconds 61 clamped to the worker's maximum 60",
        "null, null, null, 60, 512, 256, ''",
        "null, 1024, null, 60, 512, 256, memoryMegabytes 1024 clamped to the worker's maximum 512",
        "1,    99999, 100000, 1, 512, 256, memoryMegabytes 99999 clamped to the worker's maximum"
            + " 512|openFiles 100000 clamped to the worker's maximum 256"
      })
  void aProgramsLimitsAreAtMostTheWorkers(
      Long cpu,
      Long memory,
      Integer files,
      Long runsCpu,
      Long runsMemory,
      Integer runsFiles,
      String notes) {
    Limits asked =
        cpu == null && memory == null && files == null ? null : new Limits(cpu, memory, files);

    StepMaxima.Bounds bounds =
        SIX_HOURS_THREE_ATTEMPTS.bound(executable(asked), Duration.ofMinutes(1), 1);

    assertThat(bounds.executable().limits()).isEqualTo(new Limits(runsCpu, runsMemory, runsFiles));
    assertThat(bounds.notes()).isEqualTo(notes.isEmpty() ? List.of() : List.of(notes.split("\\|")));
    assertThat(bounds.executable().path()).isEqualTo("run.sh");
    assertThat(bounds.executable().args()).containsExactly("--all");
  }

  @Test
  void withoutLimitMaximaAStepKeepsWhateverLimitsItSetsOrNone() {
    StepMaxima.Bounds none = StepMaxima.DEFAULT.bound(executable(null), Duration.ofHours(1), 1);
    Limits huge = new Limits(Long.MAX_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE);
    StepMaxima.Bounds kept = StepMaxima.DEFAULT.bound(executable(huge), Duration.ofHours(1), 1);

    assertThat(none.executable().limits()).isNull();
    assertThat(kept.executable().limits()).isEqualTo(huge);
    assertThat(none.notes()).isEmpty();
    assertThat(StepMaxima.DEFAULT.timeout()).isEqualTo(Duration.ofHours(24));
    assertThat(StepMaxima.DEFAULT.attempts()).isEqualTo(10);
  }

  @Test
  void theNotesFollowTheMessageOnALineOfTheirOwn() {
    StepMaxima.Bounds bounds =
        SIX_HOURS_THREE_ATTEMPTS.bound(executable(null), Duration.ofDays(7), 1);

    assertThat(bounds.annotate("done"))
        .isEqualTo("done\n(timeout 7d clamped to the worker's maximum 6h)");
    assertThat(StepMaxima.DEFAULT.bound(executable(null), Duration.ofHours(1), 1).annotate("done"))
        .isEqualTo("done");
  }

  @Test
  void nonsenseMaximaStopTheWorkersStart() {
    assertThatThrownBy(() -> new StepMaxima(Duration.ZERO, 3, null, null, null))
        .hasMessageContaining("maximum step timeout must be positive");
    assertThatThrownBy(() -> new StepMaxima(null, 0, null, null, null))
        .hasMessageContaining("maximum attempts must be 1 or more, not 0");
    assertThatThrownBy(() -> new StepMaxima(null, 3, 0L, null, null))
        .hasMessageContaining("maximum cpu-seconds must be 1 or more");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "P7D, 7d",
    "PT6H, 6h",
    "PT1H30M, 1h30m",
    "PT45S, 45s",
    "PT0.25S, 250ms",
    "P1DT2H3M4S, 1d2h3m4s",
    "PT0S, 0s"
  })
  void durationsReadAsPeopleWriteThem(Duration duration, String text) {
    assertThat(Bounded.format(duration)).isEqualTo(text);
  }

  private static StepDefinition executable(Limits limits) {
    return new StepDefinition(
        0,
        "run",
        null,
        new ExecutableStep("run.sh", List.of("--all"), null, Map.of(), limits),
        null,
        null,
        null,
        null,
        null,
        null);
  }
}
