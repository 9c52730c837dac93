package io.jimflow.secrets.activities;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SecretMaskerTest {

  private final SecretMasker masker =
      SecretMasker.of(List.of("line-one-of-key\nline-two-of-key", "hunter2-long"));

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "key: line-one-of-key                  | key: ***",
        "line-two-of-key done                  | *** done",
        "hunter2-long and hunter2-long          | *** and ***",
        "nothing secret                        | nothing secret",
      })
  void aValueOfSeveralLinesIsMaskedLineByLineAsOutputIsRead(String text, String masked) {
    assertThat(masker.mask(text)).isEqualTo(masked);
  }

  @ParameterizedTest(name = "cut {0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "r2-long tail       | *** tail",
        "long tail          | *** tail",
        "g tail             | *** tail",
        "of-key, then more  | ***, then more",
        "plain tail         | plain tail",
      })
  void textCutInsideASecretHidesTheRestOfIt(String cut, String masked) {
    assertThat(masker.maskAfterCut(cut)).isEqualTo(masked);
  }

  @org.junit.jupiter.api.Test
  void moreValuesAddToTheMasker() {
    assertThat(masker.with(List.of("worker-token")).mask("worker-token hunter2-long"))
        .isEqualTo("*** ***");
  }
}
