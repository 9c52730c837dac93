package io.jimflow.dataplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.store.RunStatus;
import org.junit.jupiter.api.Test;

class RunOutcomeRuleTest {

  @Test
  void aRunWithoutErroredItemsIsComplete() {
    assertThat(RunOutcomeRule.decide(10, 0, false)).isEqualTo(RunStatus.Complete);
    assertThat(RunOutcomeRule.decide(0, 0, false)).isEqualTo(RunStatus.Complete);
  }

  @Test
  void someErroredItemsCompleteTheRunWithError() {
    assertThat(RunOutcomeRule.decide(10, 3, false)).isEqualTo(RunStatus.CompleteWithError);
    assertThat(RunOutcomeRule.decide(10, 9, false)).isEqualTo(RunStatus.CompleteWithError);
  }

  @Test
  void everyItemErroredFailsTheRun() {
    assertThat(RunOutcomeRule.decide(4, 4, false)).isEqualTo(RunStatus.FailedWithError);
  }

  @Test
  void anUnhandledErrorWinsOverItemCounts() {
    assertThat(RunOutcomeRule.decide(4, 4, true)).isEqualTo(RunStatus.CompleteWithError);
    assertThat(RunOutcomeRule.decide(4, 0, true)).isEqualTo(RunStatus.CompleteWithError);
  }
}
