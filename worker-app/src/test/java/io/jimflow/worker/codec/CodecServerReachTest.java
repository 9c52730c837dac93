package io.jimflow.worker.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CodecServerReachTest {

  @ParameterizedTest(name = "bind {0}, request on {1}: answered {2}")
  @CsvSource(
      nullValues = "none",
      value = {
        "none,      127.0.0.1,   true",
        "none,      ::1,         true",
        "none,      127.0.0.2,   true",
        "none,      10.1.2.3,    false",
        "none,      192.168.0.7, false",
        "127.0.0.1, 10.1.2.3,    false",
        "10.1.2.3,  10.1.2.3,    true",
        "10.1.2.3,  10.1.2.4,    false",
        "0.0.0.0,   10.1.2.4,    true",
        "::,        10.1.2.4,    true",
        "none,      not an address, false",
      })
  void answersOnLoopbackAndOnItsBindAddressOnly(String bind, String local, boolean answered) {
    assertThat(new CodecServerReach(bind).answers(local)).isEqualTo(answered);
  }

  @ParameterizedTest(name = "enabled {0}, bind {1}, token {2}: refuses to start {3}")
  @CsvSource(
      nullValues = "none",
      value = {
        "false, 0.0.0.0,   none,   false",
        "true,  none,      none,   false",
        "true,  127.0.0.1, none,   false",
        "true,  localhost, none,   false",
        "true,  0.0.0.0,   none,   true",
        "true,  ::,        none,   true",
        "true,  10.1.2.3,  none,   true",
        "true,  0.0.0.0,   s3cret, false",
      })
  void beyondLoopbackItNeedsAToken(Boolean enabled, String bind, String token, boolean refused) {
    CodecServerSettings settings = new CodecServerSettings(enabled, null, token, null, bind);

    assertThat(CodecServerReach.problem(settings).isPresent()).isEqualTo(refused);
    CodecServerReach.problem(settings)
        .ifPresent(
            problem ->
                assertThat(problem)
                    .contains(bind, "jimflow.codec-server.access-token")
                    .doesNotContain("\n"));
  }

  @org.junit.jupiter.api.Test
  void offByDefaultAndABindAddressOfNoHostIsRefusedNamingIt() {
    assertThat(new CodecServerSettings(null, null, null, null, null).enabled()).isFalse();
    assertThatThrownBy(() -> new CodecServerReach("no-such-host.invalid").answers("127.0.0.1"))
        .isInstanceOf(CodecServerExposedException.class)
        .hasMessageContaining("'no-such-host.invalid' is no address of this host");
  }

  @org.junit.jupiter.api.Test
  void theWorkerRefusesToStartWithOneLineNamingTheSetting() {
    CodecServerExposedException refusal =
        org.junit.jupiter.api.Assertions.assertThrows(
            CodecServerExposedException.class,
            () ->
                new CodecServerController(
                    io.jimflow.encryption.PayloadEncryption.of(null, null),
                    new CodecServerSettings(true, null, null, null, "0.0.0.0")));

    assertThat(new CodecServerFailureAnalyzer().analyze(refusal).getDescription())
        .startsWith("The worker refuses to start: the codec server would decrypt for anyone")
        .contains("0.0.0.0 (jimflow.codec-server.bind-address)")
        .doesNotContain("\n");
  }
}
