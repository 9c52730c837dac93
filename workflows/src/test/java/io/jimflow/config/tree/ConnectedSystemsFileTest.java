package io.jimflow.config.tree;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConnectedSystemsFileTest {

  final Problems problems = new Problems("cs.yaml");

  @Test
  void eachSystemIsKnownByIdAndByNameWithTheIdsAndNamesOfItsRunProfiles() {
    ConfigNode root =
        ConnectedSystemsFile.parse(
                """
                connectedSystems:
                  - id: hr
                    name: HR System
                    runProfiles:
                      - {id: full-import, name: Full Import}
                      - {id: sync}
                  - name: nameless id
                  - id: empty
                """,
                problems)
            .orElseThrow();

    assertThat(ConnectedSystemsFile.runProfilesBySystem(root))
        .containsExactly(
            Map.entry("hr", Set.of("full-import", "Full Import", "sync")),
            Map.entry("HR System", Set.of("full-import", "Full Import", "sync")),
            Map.entry("nameless id", Set.of()),
            Map.entry("empty", Set.of()));
    assertThat(problems.isEmpty()).isTrue();
  }

  @Test
  void aFileWithoutConnectedSystemsHasNoNames() {
    ConfigNode root = ConnectedSystemsFile.parse("syncRules: {}\n", problems).orElseThrow();

    assertThat(ConnectedSystemsFile.runProfilesBySystem(root)).isEmpty();
  }

  @Test
  void aSyntaxErrorIsReportedWithItsLineAndNoTree() {
    Optional<ConfigNode> root =
        ConnectedSystemsFile.parse("connectedSystems:\n  - id: [hr\n", problems);

    assertThat(root).isEmpty();
    assertThat(problems.list())
        .singleElement()
        .asString()
        .startsWith("cs.yaml:")
        .contains(": is not valid YAML: ");
  }

  @Test
  void aMissingFileIsReportedAsUnreadable(@TempDir Path dir) {
    Path missing = dir.resolve("connected-systems.yaml");
    Problems found = new Problems(missing.toString());

    assertThat(ConnectedSystemsFile.read(missing, found)).isEmpty();
    assertThat(found.list())
        .singleElement()
        .asString()
        .isEqualTo(missing + ": cannot be read: file not found");
  }

  @Test
  void anEmptyFileIsAProblem(@TempDir Path dir) throws Exception {
    Path empty = Files.writeString(dir.resolve("connected-systems.yaml"), "# nothing yet\n");
    Problems found = new Problems("cs.yaml");

    assertThat(ConnectedSystemsFile.read(empty, found)).isEmpty();
    assertThat(found.list()).singleElement().asString().isEqualTo("cs.yaml:1: is empty");
  }
}
