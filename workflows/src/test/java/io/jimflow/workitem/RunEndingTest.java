package io.jimflow.workitem;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.workitem.RunEnding.Move;
import io.temporal.api.enums.v1.RetryState;
import io.temporal.api.enums.v1.TimeoutType;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.TimeoutFailure;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunEndingTest {

  private static final String STARTED_WITH = "{\"line\":0}";
  private static final Instant SUCCESSOR = Instant.parse("2026-01-05T09:00:00Z");

  @Test
  void aHandlerThatReturnedEndsTheRunAsItSaid() {
    assertThat(RunEnding.returned(result(null, false, null, null, false), true, STARTED_WITH))
        .isEqualTo(
            new RunEnding(List.of(new Move(WorkItemEvent.RUN_RETURNED, null)), STARTED_WITH, null));
    assertThat(RunEnding.returned(result("{\"line\":9}", true, null, null, false), true, "{}"))
        .isEqualTo(
            new RunEnding(
                List.of(new Move(WorkItemEvent.RUN_RETURNED_DONE, null)), "{\"line\":9}", null));
    assertThat(RunEnding.returned(result(null, false, SUCCESSOR, null, false), true, STARTED_WITH))
        .isEqualTo(
            new RunEnding(
                List.of(
                    new Move(
                        WorkItemEvent.RUN_RETURNED_WITH_SUCCESSOR,
                        "successor planned for 2026-01-05T09:00:00Z")),
                STARTED_WITH,
                SUCCESSOR));
  }

  @Test
  void aHandlerErrorWinsOverWhatElseItReturned() {
    RunEnding ending =
        RunEnding.returned(result(null, true, SUCCESSOR, "boom", false), true, STARTED_WITH);

    assertThat(ending.moves()).containsExactly(new Move(WorkItemEvent.RUN_FAILED, "boom"));
    assertThat(ending.successorStart()).isNull();
  }

  @Test
  void aShutdownTheHandlerSawComesFirstWhileTheItemStillRuns() {
    RunResult sawShutdown = result(null, false, null, null, true);

    assertThat(RunEnding.returned(sawShutdown, true, STARTED_WITH).moves())
        .containsExactly(
            new Move(WorkItemEvent.SHUTDOWN_REQUESTED, "worker is shutting down"),
            new Move(WorkItemEvent.RUN_RETURNED, null));
    assertThat(RunEnding.returned(sawShutdown, false, STARTED_WITH).moves())
        .as("an item already asked to end for another reason")
        .containsExactly(new Move(WorkItemEvent.RUN_RETURNED, null));
  }

  @Test
  void anAttemptLostByItsHeartbeatOrTheHardBoundKeepsTheStateItStartedWith() {
    Duration heartbeat = Duration.ofSeconds(30);

    assertThat(
            RunEnding.failed(timedOut(TimeoutType.TIMEOUT_TYPE_HEARTBEAT), heartbeat, STARTED_WITH))
        .isEqualTo(
            new RunEnding(
                List.of(
                    new Move(
                        WorkItemEvent.RUN_LOST,
                        "no heartbeat within PT30S (worker crashed or stopped)")),
                STARTED_WITH,
                null));
    assertThat(
            RunEnding.failed(
                    timedOut(TimeoutType.TIMEOUT_TYPE_START_TO_CLOSE), heartbeat, STARTED_WITH)
                .moves())
        .containsExactly(
            new Move(WorkItemEvent.GRACE_EXPIRED, "the server's hard time bound hit the attempt"));
  }

  @Test
  void anAttemptThatFailedOutrightNamesTheInnermostCause() {
    ActivityFailure failed =
        activityFailure(new RuntimeException("wrapper", new IllegalStateException("disk full")));

    RunEnding ending = RunEnding.failed(failed, Duration.ofSeconds(30), STARTED_WITH);

    assertThat(ending.moves()).containsExactly(new Move(WorkItemEvent.RUN_FAILED, "disk full"));
    assertThat(RunEnding.messageOf(new RuntimeException(new IllegalStateException())))
        .isEqualTo("IllegalStateException");
  }

  private static RunResult result(
      String state, boolean done, Instant successor, String error, boolean shutdownSeen) {
    return new RunResult(true, state, done, successor, error, shutdownSeen);
  }

  private static ActivityFailure timedOut(TimeoutType type) {
    return activityFailure(new TimeoutFailure("timed out", null, type));
  }

  private static ActivityFailure activityFailure(RuntimeException cause) {
    return new ActivityFailure(
        "activity failed", 5, 6, "Run", "7", RetryState.RETRY_STATE_TIMEOUT, "worker-a", cause);
  }
}
