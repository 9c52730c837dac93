package io.jimflow.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.worker.dev.TemporalCli;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README stays a front door and the docs stay findable: the README is short and introduces the
 * concepts, and every relative link of the README and docs/ leads to a file and heading that exist.
 */
class DocumentationTest {

  private static final Path HOME = TemporalCli.projectHome().orElseThrow();

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*$");
  private static final Pattern FENCE = Pattern.compile("(?s)```.*?```");

  @Test
  void theReadmeIsAFrontDoorOfAtMost200LinesWithAConceptsSectionAndTheTestCommand()
      throws IOException {
    List<String> readme = Files.readAllLines(HOME.resolve("README.md"));

    assertThat(readme).hasSizeLessThanOrEqualTo(200);
    assertThat(readme).contains("## Concepts", "./mvnw verify");
  }

  @Test
  void everyRelativeLinkOfTheReadmeAndTheDocsLeadsToAFileAndHeadingThatExist() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path page : pages()) {
      Matcher link = LINK.matcher(withoutCodeBlocks(Files.readString(page)));
      while (link.find()) {
        String target = link.group(1);
        if (target.matches("(?i)(https?|mailto):.*")) {
          continue;
        }
        String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
        String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : "";
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
          broken.add(HOME.relativize(page) + ": " + target + " (no such file)");
        } else if (!anchor.isEmpty()
            && resolved.toString().endsWith(".md")
            && !anchors(resolved).contains(anchor)) {
          broken.add(HOME.relativize(page) + ": " + target + " (no such heading)");
        }
      }
    }

    assertThat(broken).isEmpty();
  }

  private static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(HOME.resolve("README.md")));
    try (Stream<Path> docs = Files.list(HOME.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  private static String withoutCodeBlocks(String markdown) {
    return FENCE.matcher(markdown).replaceAll("");
  }

  private static Set<String> headings(Path page) {
    try {
      return HEADING
          .matcher(withoutCodeBlocks(Files.readString(page)))
          .results()
          .map(m -> plain(m.group(1)))
          .collect(Collectors.toSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** GitHub's anchors: lower case, punctuation dropped, spaces to hyphens. */
  private static Set<String> anchors(Path page) {
    return headings(page).stream()
        .map(
            h ->
                h.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-'))
        .collect(Collectors.toSet());
  }

  private static String plain(String heading) {
    return heading.replace("`", "").trim();
  }
}
