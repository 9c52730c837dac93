package io.jimflow.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.dataplane.Checkpoint.Phase;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CheckpointTest {

  @Test
  void aCheckpointWithABoundIsStoredAndReadBack() {
    Checkpoint marking = new Checkpoint(Phase.MARK, 4_000, 9_999);

    assertThat(marking).hasToString("mark:9999:4000");
    assertThat(Checkpoint.parse("mark:9999:4000", Phase.ROWS)).isEqualTo(marking);
  }

  /**
   * The checkpoints earlier versions stored (in run records and in the heartbeats of steps still
   * running) read as the phase they named, and are written back unchanged.
   */
  @ParameterizedTest
  @CsvSource({
    "rows:4000,      ROWS,      4000, 0",
    "absent:17,      ABSENT,    17,   0",
    "sync:250,       SYNC,      250,  0",
    "deletions:0,    DELETIONS, 0,    0",
    "done:0,         DONE,      0,    0",
    "exported:12,    EXPORTED,  12,   0",
    "sending:40:30,  SENDING,   30,   40",
    "mark:9999:4000, MARK,      4000, 9999",
    "mark:0:0,       MARK,      0,    0",
  })
  void storedCheckpointsReadAsTheirPhaseAndAreWrittenTheSame(
      String stored, Phase phase, long position, long bound) {
    Checkpoint read = Checkpoint.parse(stored, Phase.ROWS);

    assertThat(read).isEqualTo(new Checkpoint(phase, position, bound));
    // "mark:0:0" has no bound to write: it reads back as the same checkpoint.
    assertThat(Checkpoint.parse(read.toString(), Phase.ROWS)).isEqualTo(read);
    if (bound != 0 || stored.split(":").length == 2) {
      assertThat(read).hasToString(stored);
    }
  }

  @Test
  void aPhaseAloneIsPositionZeroAndNoneStoredIsTheInitialPhase() {
    assertThat(Checkpoint.parse("deletions", Phase.SYNC))
        .isEqualTo(new Checkpoint(Phase.DELETIONS, 0));
    assertThat(Checkpoint.parse("done", Phase.SYNC)).isEqualTo(new Checkpoint(Phase.DONE, 0));
    assertThat(Checkpoint.parse(null, Phase.SYNC)).isEqualTo(new Checkpoint(Phase.SYNC, 0));
    assertThat(Checkpoint.parse(" ", Phase.ROWS)).isEqualTo(new Checkpoint(Phase.ROWS, 0));
  }

  @Test
  void everyPhaseHasItsOwnStoredName() {
    assertThat(Arrays.stream(Phase.values()).map(p -> p.stored))
        .containsExactly(
            "rows", "absent", "sync", "deletions", "done", "exported", "sending", "mark")
        .doesNotHaveDuplicates();
    for (Phase phase : Phase.values()) {
      assertThat(Phase.parse(phase.stored)).isEqualTo(phase);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"ROWS:1", "row:1", "rows:x", "rows:1:2:3", "mark:1:", ":5", "rows:-"})
  void aCheckpointThatIsNoneOfOursIsRefusedSayingWhichText(String text) {
    assertThatThrownBy(() -> Checkpoint.parse(text, Phase.ROWS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("not a run checkpoint: '" + text + "'");
  }
}
