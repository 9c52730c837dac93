package io.jimflow.connector.csv;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CsvFormulasTest {

  @ParameterizedTest(name = "[{0}] is written [{1}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '~',
      value = {
        "=HYPERLINK(\"http://x\")  | '=HYPERLINK(\"http://x\")",
        "+1-555-0100              | '+1-555-0100",
        "-2+3                     | '-2+3",
        "@SUM(A1:A9)              | '@SUM(A1:A9)",
        "~\t=1+1~                 | ~'\t=1+1~",
        "~\r=1+1~                 | ~'\r=1+1~",
        "'=1+1                    | ''=1+1",
        "''x                      | '''x",
        "'quoted                  | 'quoted",
        "'                        | '",
        "Ada Lovelace             | Ada Lovelace",
        "a=b                      | a=b",
        "ada@example.org          | ada@example.org",
        "~~                       | ~~",
      })
  void cellsASpreadsheetWouldRunGetAQuoteAndComeBackAsTheyWere(String value, String written) {
    assertThat(CsvFormulas.neutralise(value)).isEqualTo(written);
    assertThat(CsvFormulas.restore(written)).isEqualTo(value);
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource(value = {"-", "=", "'", "''", "'''", "'-", "x'"})
  void everyValueSurvivesTheRoundTrip(String value) {
    assertThat(CsvFormulas.restore(CsvFormulas.neutralise(value))).isEqualTo(value);
  }
}
