package io.jimflow.workitem;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkItemRequestsTest {

  private static final Instant START = Instant.parse("2026-01-05T08:00:00Z");
  private static final WorkItemSpec SPEC = WorkItemSpec.of("item-1", "line-count", "{}", START);

  /** One row per state and instance: whether a new schedule may replace the item's. */
  @ParameterizedTest(name = "{0}, instance {1} → refused: {2}")
  @CsvSource({
    "WaitingForStart,       1, false",
    "WaitingForPredecessor, 1, false",
    "Suspended,             1, false",
    "Queued,                1, false",
    "WaitingForStart,       2, true",
    "Removing,              1, true",
    "Running,               1, true",
    "Finished,              1, true",
  })
  void onlyAnItemThatHasNotStartedInItsFirstInstanceIsRescheduled(
      WorkItemState state, int instance, boolean refused) {
    WorkItemSpec replacement = SPEC.withStartTime(START.plusSeconds(60));

    assertThat(WorkItemRequests.refuseSchedule(SPEC, replacement, state, instance))
        .as("refused")
        .matches(r -> r.isPresent() == refused);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "none      | schedule: a work item spec is required",
        "other     | work item item-1: spec names another guid item-2",
        "no kind   | work item item-1: kind: must not be empty",
        "started   | work item item-1 has already started (state Running, instance 1): it owns"
            + " itself and cannot be re-scheduled; cancel it or use another guid",
      })
  void aRefusedScheduleSaysWhy(String request, String message) {
    WorkItemSpec requested =
        switch (request) {
          case "none" -> null;
          case "other" -> WorkItemSpec.of("item-2", "line-count", "{}", START);
          case "no kind" -> WorkItemSpec.of("item-1", " ", "{}", START);
          default -> SPEC;
        };
    WorkItemState state = request.equals("started") ? WorkItemState.Running : WorkItemState.Queued;

    assertThat(WorkItemRequests.refuseSchedule(SPEC, requested, state, 1)).hasValue(message);
  }

  @ParameterizedTest(name = "{0} → refused: {1}")
  @CsvSource({
    "WaitingForStart,       false",
    "WaitingForPredecessor, false",
    "Suspended,             false",
    "Queued,                false",
    "Removing,              true",
    "Running,               true",
  })
  void onlyAPlannedItemsStartTimeChanges(WorkItemState state, boolean refused) {
    StartTimeChange change = new StartTimeChange(START.plusSeconds(60));

    assertThat(WorkItemRequests.refuseStartTimeChange("item-1", change, state))
        .as("refused")
        .matches(r -> r.isPresent() == refused);
    assertThat(WorkItemRequests.refuseStartTimeChange("item-1", null, state))
        .hasValue("work item item-1: changeStartTime needs a start time");
  }

  /**
   * One row per situation: the state, whether the ended instance still awaits its restart, whether
   * a cancel is already pending, and the refusal (empty: accepted).
   */
  @ParameterizedTest(name = "{0}, awaiting restart {1}, cancel pending {2} → {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        "Queued             | false | false |",
        "Running            | false | false |",
        "CancellingBySystem | false | false |",
        "Running            | false | true  | work item item-1 is Running: nothing to cancel",
        "Removing           | false | false | work item item-1 is Removing: nothing to cancel",
        "Finished           | false | false | work item item-1 is Finished: nothing to cancel",
        // an instance that ended and awaits its restart: the cancel turns it into Cancelled
        "ErrorRetry         | true  | false |",
        "ErrorRetry         | false | false | work item item-1 is ErrorRetry: nothing to cancel",
        "Reschedule         | false | false | work item item-1 is Reschedule: it has planned its"
            + " successor; cancel again to remove that",
      })
  void aCancelIsAcceptedUntilTheItemHasEnded(
      WorkItemState state, boolean awaitingRestart, boolean cancelPending, String refusal) {
    assertThat(WorkItemRequests.refuseCancel("item-1", state, awaitingRestart, cancelPending))
        .isEqualTo(java.util.Optional.ofNullable(refusal));
  }
}
