package io.jimflow.schedule.activities;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.StepRecord;
import io.jimflow.schedule.StepStatus;
import io.jimflow.store.ExecutionRecords.Stored;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExecutionMilestonesTest {

  @Test
  void aWriteTellsOnlyWhatTheStoreDidNotKnow() {
    record Case(
        Optional<ExecutionStatus> before,
        Set<Integer> stepsBefore,
        ExecutionStatus written,
        boolean started,
        boolean ended,
        List<Integer> stepsEnded) {}
    List<Case> cases =
        List.of(
            new Case(
                Optional.empty(), Set.of(), ExecutionStatus.InProgress, true, false, List.of(0, 1)),
            new Case(Optional.empty(), Set.of(), ExecutionStatus.Failed, true, true, List.of(0, 1)),
            new Case(
                Optional.of(ExecutionStatus.InProgress),
                Set.of(0),
                ExecutionStatus.InProgress,
                false,
                false,
                List.of(1)),
            new Case(
                Optional.of(ExecutionStatus.InProgress),
                Set.of(0, 1),
                ExecutionStatus.Complete,
                false,
                true,
                List.of()),
            // A retried or a later chunk of the final write.
            new Case(
                Optional.of(ExecutionStatus.Complete),
                Set.of(0),
                ExecutionStatus.Complete,
                false,
                false,
                List.of(1)));
    for (Case c : cases) {
      ExecutionMilestones milestones =
          ExecutionMilestones.of(new Stored(c.before(), c.stepsBefore()), record(c.written()));
      assertThat(milestones.started()).as("started %s", c).isEqualTo(c.started());
      assertThat(milestones.ended()).as("ended %s", c).isEqualTo(c.ended());
      assertThat(milestones.stepsEnded().stream().map(StepRecord::position).toList())
          .as("steps %s", c)
          .isEqualTo(c.stepsEnded());
    }
  }

  private static ExecutionRecord record(ExecutionStatus status) {
    Instant at = Instant.parse("2026-11-27T02:00:00Z");
    return new ExecutionRecord(
        "e",
        "r",
        "s",
        "S",
        null,
        null,
        status,
        null,
        1,
        2,
        at,
        null,
        List.of(step(0, at), step(1, at)));
  }

  private static StepRecord step(int position, Instant at) {
    return new StepRecord(
        position, 0, "step", "Executable", "x.sh", StepStatus.Complete, 1, at, at, null, null);
  }
}
