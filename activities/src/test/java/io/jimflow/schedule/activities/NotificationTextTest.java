package io.jimflow.schedule.activities;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.Notification;
import io.jimflow.schedule.ScheduleDefinition;
import java.util.List;
import org.junit.jupiter.api.Test;

class NotificationTextTest {

  private static final ScheduleDefinition NIGHTLY =
      new ScheduleDefinition(
          "nightly-hr-sync", "Nightly HR Sync", null, true, null, null, null, null, List.of());

  private static final String HELD =
      "held: the export would send 30 updates of 30 objects of Directory (100%), above the"
          + " threshold of 2000 or 50%; e.g. E1, E2 and 28 more; nothing was sent and the exports"
          + " stay pending. Approve or reject it: jimflow executions approve|reject"
          + " nightly-hr-sync/manual/1 --step 'Directory - Export' --reason TEXT";

  @Test
  void aHoldNamesTheScheduleTheExecutionTheStepWhatHoldsItAndHowToDecide() {
    String text =
        NotificationText.of(
            Notification.awaitingApproval(
                NIGHTLY, "nightly-hr-sync/manual/1", "Directory - Export", HELD));

    assertThat(text)
        .isEqualTo(
            "jimflow: schedule 'Nightly HR Sync' (nightly-hr-sync): step 'Directory - Export' of"
                + " execution nightly-hr-sync/manual/1 waits for an approval. "
                + HELD);
  }

  @Test
  void aHoldWhoseMessageLacksTheHowToGetsIt() {
    String text =
        NotificationText.of(
            Notification.awaitingApproval(NIGHTLY, "x/1", "Import", "held: 10 of 10 absent"));

    assertThat(text)
        .endsWith(
            "waits for an approval. held: 10 of 10 absent. Approve or reject it: jimflow"
                + " executions approve|reject x/1 --step 'Import' --reason TEXT");
  }

  @Test
  void aHostileHoldIsCutToItsBounds() {
    String hostile = "x".repeat(5_000);
    String text =
        NotificationText.of(
            Notification.awaitingApproval(
                NIGHTLY, hostile, hostile, hostile + " jimflow executions approve|reject"));

    // The cut message loses its how-to, so it is added, with the cut execution and step.
    // The cut message lost its how-to, so it is added, with the cut execution and step: four
    // names, the message and some 200 characters of text, never the 15,000 sent.
    assertThat(text)
        .contains("Approve or reject it: jimflow executions approve|reject")
        .hasSizeLessThan(4 * NotificationText.NAME_LIMIT + NotificationText.MESSAGE_LIMIT + 200);
  }
}
