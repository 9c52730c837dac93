package io.jimflow.dataplane;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CheckpointTest {

  @Test
  void aCheckpointWithABoundIsStoredAndReadBack() {
    Checkpoint marking = new Checkpoint(Checkpoint.MARK, 4_000, 9_999);

    assertThat(marking).hasToString("mark:9999:4000");
    assertThat(Checkpoint.parse("mark:9999:4000", Checkpoint.ROWS)).isEqualTo(marking);
  }

  @Test
  void checkpointsStoredWithoutABoundStillRead() {
    assertThat(Checkpoint.parse("rows:4000", Checkpoint.ROWS))
        .isEqualTo(new Checkpoint(Checkpoint.ROWS, 4_000))
        .hasToString("rows:4000");
    assertThat(Checkpoint.parse("exported:12", Checkpoint.ROWS))
        .isEqualTo(new Checkpoint(Checkpoint.EXPORTED, 12, 0));
    assertThat(Checkpoint.parse("deletions", Checkpoint.SYNC))
        .isEqualTo(new Checkpoint(Checkpoint.DELETIONS, 0));
    assertThat(Checkpoint.parse(null, Checkpoint.SYNC))
        .isEqualTo(new Checkpoint(Checkpoint.SYNC, 0));
  }
}
