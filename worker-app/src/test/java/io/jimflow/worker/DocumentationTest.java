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
 * concepts, the results page is short, every relative link of the README and docs/ leads to a file
 * and heading that exist, and every {@code docs/<page>.md, "Section"} that the sources name is a
 * heading of that page.
 */
class DocumentationTest {

  private static final Path HOME = TemporalCli.projectHome().orElseThrow();

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*$");
  private static final Pattern FENCE = Pattern.compile("(?s)```.*?```");
  private static final Pattern SOURCE_REFERENCE =
      Pattern.compile("docs/([a-z0-9-]+\\.md)(?:, \"([^\"]+)\")?");
  private static final Pattern COMMENT_BREAK = Pattern.compile("\\s*\\n\\s*(?:\\*(?!/)|//|#)?\\s*");
  private static final Set<String> SOURCE_SUFFIXES =
      Set.of(".java", ".sh", ".yml", ".yaml", ".properties");

  @Test
  void theReadmeIsAFrontDoorOfAtMost200LinesWithAConceptsSectionAndTheTestCommand()
      throws IOException {
    List<String> readme = Files.readAllLines(HOME.resolve("README.md"));

    assertThat(readme).hasSizeLessThanOrEqualTo(200);
    assertThat(readme).contains("## Concepts", "./mvnw verify");
  }

  @Test
  void theBenchmarksPageIsAResultsPageOfAtMost400Lines() throws IOException {
    assertThat(Files.readAllLines(HOME.resolve("docs/benchmarks.md")))
        .hasSizeLessThanOrEqualTo(400);
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

  @Test
  void everyDocsSectionTheSourcesNameIsAHeadingOfThatPage() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path source : sources()) {
      String text = COMMENT_BREAK.matcher(Files.readString(source)).replaceAll(" ");
      Matcher reference = SOURCE_REFERENCE.matcher(text);
      while (reference.find()) {
        Path page = HOME.resolve("docs").resolve(reference.group(1));
        String section = reference.group(2);
        if (!Files.exists(page)) {
          broken.add(HOME.relativize(source) + ": docs/" + reference.group(1) + " (no such file)");
        } else if (section != null && !names(headings(page), plain(section))) {
          broken.add(
              HOME.relativize(source)
                  + ": docs/"
                  + reference.group(1)
                  + ", \""
                  + section
                  + "\" (no such heading)");
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

  private static List<Path> sources() throws IOException {
    List<Path> sources = new ArrayList<>();
    for (String root :
        List.of("workflows/src", "activities/src", "starter/src", "worker-app/src", "scripts")) {
      try (Stream<Path> files = Files.walk(HOME.resolve(root))) {
        files
            .filter(Files::isRegularFile)
            .filter(p -> SOURCE_SUFFIXES.stream().anyMatch(s -> p.toString().endsWith(s)))
            .filter(p -> !p.getFileName().toString().equals("DocumentationTest.java"))
            .forEach(sources::add);
      }
    }
    sources.add(HOME.resolve("docker-compose.yml"));
    return sources;
  }

  /** A section is named by its heading, or by the part of it before a colon ("Embedded H2"). */
  private static boolean names(Set<String> headings, String section) {
    return headings.stream().anyMatch(h -> h.equals(section) || h.startsWith(section + ":"));
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
