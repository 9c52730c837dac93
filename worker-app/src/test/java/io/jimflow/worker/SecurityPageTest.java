package io.jimflow.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.worker.dev.TemporalCli;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/security.md points each promise at the test that checks it, as {@code `SomeTest`} or {@code
 * `SomeIT.aTestMethod`}: every test class and method it names exists, so a renamed or deleted test
 * cannot leave a promise pointing at nothing.
 */
class SecurityPageTest {

  private static final Path HOME = TemporalCli.projectHome().orElseThrow();
  private static final Pattern TEST_REFERENCE =
      Pattern.compile("`([A-Z][A-Za-z0-9]*(?:Test|IT))(?:\\.([a-z][A-Za-z0-9]*))?`");

  @Test
  void everyTestTheSecurityPageNamesExists() throws IOException {
    Map<String, Path> tests = testSources();
    Matcher reference = TEST_REFERENCE.matcher(Files.readString(HOME.resolve("docs/security.md")));
    List<String> missing = new ArrayList<>();
    int named = 0;
    while (reference.find()) {
      named++;
      Path source = tests.get(reference.group(1));
      if (source == null) {
        missing.add(reference.group(1) + " (no such test class)");
      } else if (reference.group(2) != null
          && !read(source).matches("(?s).*\\bvoid " + reference.group(2) + "\\(.*")) {
        missing.add(
            reference.group(0) + " (no such test method in " + HOME.relativize(source) + ")");
      }
    }

    assertThat(named).as("tests the page names").isGreaterThan(10);
    assertThat(missing).isEmpty();
  }

  private static Map<String, Path> testSources() throws IOException {
    try (Stream<Path> files = Files.walk(HOME, 14)) {
      return files
          .filter(f -> f.toString().contains("/src/test/java/"))
          .filter(f -> !f.toString().contains("/target/"))
          .filter(f -> f.getFileName().toString().matches(".*(Test|IT)\\.java"))
          .collect(
              Collectors.toMap(
                  f -> f.getFileName().toString().replace(".java", ""), f -> f, (a, b) -> a));
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
