package io.jimflow.schedule.steps;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BoundedLinesTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a\\nb\\n          | 5 | a+0,b+0",
        "a\\r\\nb           | 5 | a+0,b+0",
        "a\\rb\\r\\n\\nc     | 5 | a+0,b+0,+0,c+0",
        "12345\\n          | 5 | 12345+0",
        "123456789\\nz     | 5 | 56789+4,z+0",
        "12345678901234567 | 5 | 34567+12",
        "                  | 5 | ''",
      })
  void linesLongerThanTheCapKeepTheirTailAndSayHowMuchWasDropped(
      String input, int maxLine, String expected) throws IOException {
    String text = input == null ? "" : input.strip().replace("\\n", "\n").replace("\\r", "\r");
    List<String> lines = new ArrayList<>();

    BoundedLines.read(
        new StringReader(text), maxLine, (line, dropped) -> lines.add(line + "+" + dropped));

    assertThat(String.join(",", lines)).isEqualTo(expected);
  }

  @org.junit.jupiter.api.Test
  void anEndlessLineIsReadInChunksWithoutEverHoldingMoreThanTwiceTheCap() throws IOException {
    long length = 20_000_000;
    int[] longest = {0};
    Reader endless =
        new Reader() {
          long left = length;

          @Override
          public int read(char[] buffer, int offset, int count) {
            longest[0] = Math.max(longest[0], count);
            if (left == 0) {
              return -1;
            }
            int n = (int) Math.min(count, left);
            java.util.Arrays.fill(buffer, offset, offset + n, 'x');
            left -= n;
            return n;
          }

          @Override
          public void close() {}
        };
    List<String> lines = new ArrayList<>();
    long[] droppedSeen = {0};

    BoundedLines.read(
        endless,
        8000,
        (line, dropped) -> {
          lines.add(line);
          droppedSeen[0] = dropped;
        });

    assertThat(lines).hasSize(1);
    assertThat(lines.get(0)).hasSize(8000);
    assertThat(droppedSeen[0]).isEqualTo(length - 8000);
    assertThat(longest[0]).isEqualTo(BoundedLines.CHUNK);
  }
}
