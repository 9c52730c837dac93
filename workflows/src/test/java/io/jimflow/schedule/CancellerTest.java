package io.jimflow.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CancellerTest {

  @ParameterizedTest
  @CsvSource({
    "User, alice, Cancelled by User alice",
    "ApiKey, ci-pipeline, Cancelled by ApiKey ci-pipeline",
    "User, DOMAIN\\bob, Cancelled by User DOMAIN\\bob",
    "User, 4711@build-host.example.org, Cancelled by User 4711@build-host.example.org",
    "User, Zoë Ødegaard, Cancelled by User Zoë_Ødegaard",
    "User, 'a;b\nc', Cancelled by User a_b_c",
  })
  void theReasonNamesTheCancellerAndReadsBackAsTheSameCanceller(
      InitiatorType type, String name, String reason) {
    assertThat(Canceller.reason(new Initiator(type, name, name))).isEqualTo(reason);

    String kept = reason.substring(reason.lastIndexOf(' ') + 1);
    assertThat(Canceller.of(reason)).contains(new Initiator(type, kept, kept));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "cancelled with jimflow",
        "Cancelled by",
        "Cancelled by User",
        "Cancelled by User ",
        "Cancelled by Admin alice",
        "cancelled by User alice",
      })
  void aReasonNotInTheCancellersFormNamesNobody(String reason) {
    assertThat(Canceller.of(reason)).isEmpty();
  }

  @org.junit.jupiter.api.Test
  void aNullReasonNamesNobody() {
    assertThat(Canceller.of(null)).isEqualTo(Optional.empty());
  }

  @org.junit.jupiter.api.Test
  void aHostileNameIsCutToTheLimitAndKeepsNoControlOrMarkupCharacters() {
    String hostile =
        "Cancelled by User "
            + "<script>\u0000\u202e\r\n\u001b[31m".repeat(3)
            + "x".repeat(10 * Canceller.NAME_LIMIT);

    Initiator who = Canceller.of(hostile).orElseThrow();

    assertThat(who.id()).hasSize(Canceller.NAME_LIMIT).matches("[A-Za-z0-9_]*");
    assertThat(who.id()).doesNotContain("<", ">", "\u0000", "\u202e", "\n", "\r", "\u001b");
    assertThat(Canceller.describe(who)).isEqualTo("User " + who.id());
  }
}
