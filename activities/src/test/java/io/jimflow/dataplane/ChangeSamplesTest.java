package io.jimflow.dataplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.store.PendingExports.PendingSample;
import io.jimflow.sync.ExportChange;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ChangeSamplesTest {

  static Stream<Arguments> samples() {
    Map<String, String> many = new LinkedHashMap<>();
    for (int i = 0; i < 10; i++) {
      many.put("a" + i, "v" + i);
    }
    return Stream.of(
        Arguments.of(
            "an update shows only what it changes",
            ExportChange.Update,
            Map.of("title", "Engineer", "cn", "Ada", "mail", "a@x"),
            Map.of("title", "Architect", "cn", "Ada"),
            "Update E1: title 'Engineer' -> 'Architect'"),
        Arguments.of(
            "a value the target lacks is none, and an empty one too",
            ExportChange.Update,
            Map.of("title", ""),
            Map.of("title", "Architect", "mail", "", "cn", "Ada"),
            "Update E1: cn (none) -> 'Ada'; title '' -> 'Architect'"),
        Arguments.of(
            "a create shows every value it sets",
            ExportChange.Create,
            Map.of(),
            Map.of("cn", "Ada", "uid", "E1"),
            "Create E1: cn (none) -> 'Ada'; uid (none) -> 'E1'"),
        Arguments.of(
            "a delete shows no value: nothing the target holds beyond what the mapping sends",
            ExportChange.Delete,
            Map.of("title", "Engineer", "userPassword", "secret"),
            Map.of(),
            "Delete E1"),
        Arguments.of(
            "what the target holds beyond what the export sends is never shown",
            ExportChange.Update,
            Map.of("userPassword", "secret", "title", "Engineer"),
            Map.of("title", "Architect"),
            "Update E1: title 'Engineer' -> 'Architect'"),
        Arguments.of(
            "eight attributes at most, the rest counted",
            ExportChange.Create,
            Map.of(),
            many,
            "Create E1: a0 (none) -> 'v0'; a1 (none) -> 'v1'; a2 (none) -> 'v2'; a3 (none) -> 'v3';"
                + " a4 (none) -> 'v4'; a5 (none) -> 'v5'; a6 (none) -> 'v6'; a7 (none) -> 'v7';"
                + " and 2 more"),
        Arguments.of(
            "a long value is cut short and a line break shows as a space",
            ExportChange.Update,
            Map.of("title", "a\nb"),
            Map.of("title", "x".repeat(5_000)),
            "Update E1: title 'a b' -> '" + "x".repeat(80) + "…'"));
  }

  @Test
  void anImportedChangeShowsOnlyAttributesTheSyncRulesMap() {
    assertThat(
            ChangeSamples.of(
                    "Update",
                    "E1",
                    Map.of("jobTitle", "Engineer", "salary", "50000"),
                    Map.of("jobTitle", "Architect", "salary", "90000"),
                    Set.of("jobTitle"))
                .describe())
        .isEqualTo("Update E1: jobTitle 'Engineer' -> 'Architect'");
    assertThat(ChangeSamples.of("Delete", "E1", Map.of("salary", "1"), null, Set.of()).describe())
        .isEqualTo("Delete E1");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void aPendingExportIsShownByWhatItChanges(
      String why,
      ExportChange change,
      Map<String, String> now,
      Map<String, String> asked,
      String shown) {
    assertThat(ChangeSamples.of(new PendingSample(change, "E1", now, asked)).describe())
        .isEqualTo(shown);
  }
}
