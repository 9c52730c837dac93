package io.jimflow.exampledata;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExamplePeopleTest {

  static String generate(long seed, long people) throws IOException {
    StringWriter out = new StringWriter();
    new ExamplePeople(seed).write(people, out, n -> {});
    return out.toString();
  }

  @Test
  void theSameSeedGivesTheSameFileAndAnotherSeedAnotherOne() throws IOException {
    assertThat(generate(7, 200)).isEqualTo(generate(7, 200));
    assertThat(generate(8, 200)).isNotEqualTo(generate(7, 200));
  }

  @Test
  void everyPersonHasAUniqueAnchorAndEveryColumn() throws IOException {
    List<String> lines = generate(1, 1_000).lines().toList();
    assertThat(lines.get(0)).isEqualTo(ExamplePeople.HEADER);
    assertThat(lines).hasSize(1_001);
    Set<String> ids = new HashSet<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] fields = line.split(",", -1);
      assertThat(fields).hasSize(10);
      assertThat(ids.add(fields[0])).isTrue();
    }
    assertThat(lines)
        .anyMatch(l -> l.endsWith(",Contractor,Active"))
        .anyMatch(l -> l.endsWith(",Terminated"));
  }

  @Test
  void everyRowReachesTheWriterBeforeTheNextIsMadeSoMemoryDoesNotGrowWithTheCount()
      throws IOException {
    long[] characters = {0};
    Writer counting =
        new Writer() {
          @Override
          public void write(char[] buffer, int offset, int length) {
            characters[0] += length;
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    long[] before = {0};
    new ExamplePeople(3)
        .write(
            50_000,
            counting,
            n -> {
              assertThat(characters[0]).as("written by row %d", n).isGreaterThan(before[0]);
              before[0] = characters[0];
            });
  }
}
