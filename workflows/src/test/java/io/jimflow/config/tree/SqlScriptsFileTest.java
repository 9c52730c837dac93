package io.jimflow.config.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.config.tree.SqlScriptsFile.SqlScripts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqlScriptsFileTest {

  private static final String MISSING_ROOT =
      "missing required key 'root' (the scripts folder, relative to this file)";

  @TempDir Path dir;
  final Problems problems = new Problems("s.yaml");

  private Optional<SqlScripts> read(String yaml) throws IOException {
    Path config = Files.createDirectories(dir.resolve("config"));
    return SqlScriptsFile.read(Files.writeString(config.resolve("s.yaml"), yaml), problems);
  }

  private List<String> problemsOf(String yaml) throws IOException {
    read(yaml);
    return problems.list().stream().map(ConfigProblem::format).toList();
  }

  @Test
  void theRootIsRelativeToTheFileAndTheConnectionsKeepTheirOrder() throws IOException {
    SqlScripts scripts =
        read("""
                root: ../scripts/sql
                connections:
                  - name: warehouse
                  - name: reporting
                """)
            .orElseThrow();

    assertThat(problems.isEmpty()).isTrue();
    assertThat(scripts.file()).isEqualTo(dir.resolve("config/s.yaml"));
    assertThat(scripts.root()).contains(dir.resolve("scripts/sql"));
    assertThat(scripts.connections()).containsExactly("warehouse", "reporting");
  }

  @Test
  void unknownKeysAreReportedFirstAndAloneWithTheirLines() throws IOException {
    assertThat(
            problemsOf(
                """
                root: sql
                connections:
                  - name: 'a b'
                  - {name: x, url: jdbc:postgresql://localhost/x}
                scripts: nightly
                """))
        .containsExactly(
            "s.yaml:4: connections[1].url: unknown key 'url'; known keys: name",
            "s.yaml:5: scripts: unknown key 'scripts'; known keys: root, connections");
  }

  @Test
  void onceTheKeysAreRightEveryBadValueIsReportedWithItsLine() throws IOException {
    assertThat(
            problemsOf(
                """
                connections:
                  - name: 'a b'
                  - name: reporting
                  - name: reporting
                  - {}
                """))
        .containsExactly(
            "s.yaml:1: " + MISSING_ROOT,
            "s.yaml:2: connections[0].name: connection name 'a b' must be letters, digits, '.',"
                + " '_' or '-' (at most 63), e.g. reporting",
            "s.yaml:4: connections[2].name: duplicate connection name 'reporting'",
            "s.yaml:5: connections[3].name: connection name 'null' must be letters, digits,"
                + " '.', '_' or '-' (at most 63), e.g. reporting");
  }

  @Test
  void aFileWithProblemsStillGivesWhatIsRightForLenientReaders() throws IOException {
    SqlScripts scripts =
        read("""
                root: sql
                connections:
                  - {name: reporting, url: jdbc:postgresql://localhost/x}
                  - name: 'a b'
                """)
            .orElseThrow();

    assertThat(problems.isEmpty()).isFalse();
    assertThat(scripts.root()).contains(dir.resolve("config/sql"));
    assertThat(scripts.connections()).containsExactly("reporting");
  }

  @Test
  void anEmptyFileNamesNoRoot() throws IOException {
    assertThat(read("")).isEmpty();
    assertThat(problems.list())
        .map(ConfigProblem::format)
        .containsExactly("s.yaml:1: " + MISSING_ROOT);
  }

  @Test
  void aBlankRootIsNoRoot() throws IOException {
    assertThat(read("root: ''\n").orElseThrow().root()).isEmpty();
    assertThat(problems.list())
        .map(ConfigProblem::format)
        .containsExactly("s.yaml:1: " + MISSING_ROOT);
  }

  @Test
  void aRootThatIsNoPathIsAProblemNotACrash() throws IOException {
    assertThat(problemsOf("root: \"sql\\0\"\n"))
        .singleElement()
        .asString()
        .startsWith("s.yaml:1: root: 'sql")
        .contains("is not a valid path");
  }

  @Test
  void aSyntaxErrorGivesNothingButItsLine() throws IOException {
    assertThat(read("root: sql\nconnections: [{name: x\n")).isEmpty();
    assertThat(problems.list())
        .singleElement()
        .extracting(ConfigProblem::format)
        .asString()
        .startsWith("s.yaml:")
        .contains(": is not valid YAML: ");
  }
}
