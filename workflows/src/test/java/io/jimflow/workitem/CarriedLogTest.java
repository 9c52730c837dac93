package io.jimflow.workitem;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CarriedLogTest {

  private static List<WorkItemTransition> log(int entries) {
    List<WorkItemTransition> log = new ArrayList<>();
    for (int i = 0; i < entries; i++) {
      log.add(
          new WorkItemTransition(
              i + 1,
              WorkItemState.Reschedule,
              WorkItemState.WaitingForStart,
              Instant.ofEpochSecond(i),
              null));
    }
    return log;
  }

  @Test
  void aShortLogIsCarriedWhole() {
    List<WorkItemTransition> log = log(10);
    assertThat(WorkItemJournal.carried(log, 10)).isEqualTo(log);
  }

  @Test
  void aLongLogKeepsItsNewestEntriesAfterANoteSayingHowManyWereDropped() {
    List<WorkItemTransition> carried = WorkItemJournal.carried(log(25), 10);

    assertThat(carried).hasSize(10);
    assertThat(carried.get(0).note())
        .isEqualTo("16 earlier log entries dropped; the earlier runs' histories still hold them");
    assertThat(carried.get(0).from()).isEqualTo(carried.get(0).to());
    assertThat(carried.get(1).instance()).isEqualTo(17);
    assertThat(carried.get(9).instance()).isEqualTo(25);
  }
}
