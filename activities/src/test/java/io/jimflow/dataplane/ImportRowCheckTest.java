package io.jimflow.dataplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.connector.ImportRow;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ImportRowCheckTest {

  static Stream<Arguments> rows() {
    String longAnchor = "E".repeat(501);
    return Stream.of(
        Arguments.of("E1", Map.of("employeeId", "E1", "name", "Ada"), null, null),
        Arguments.of(
            "E1",
            Map.of("employeeId", "E1", "name", "A\0da"),
            "NulCharacter",
            "hr.csv line 7: name holds a NUL character"),
        Arguments.of(
            "E\0", Map.of("name", "Ada"), "NulCharacter", "hr.csv line 7: the anchor holds a NUL"),
        Arguments.of(
            "E1",
            Map.of("employeeId", "E1", "title", "x".repeat(1_001)),
            "ValueTooLong",
            "hr.csv line 7: title has 1001 characters, more than the 1000"),
        Arguments.of("E1", Map.of("employeeId", "E1", "title", "x".repeat(1_000)), null, null),
        Arguments.of(
            longAnchor,
            Map.of("employeeId", longAnchor),
            "AnchorTooLong",
            "hr.csv line 7: the anchor has 501 characters, more than the 500"));
  }

  @ParameterizedTest
  @MethodSource("rows")
  void aRowTheStoreCannotHoldBecomesAnErrorRowNamingWhereItIs(
      String anchor, Map<String, String> attributes, String errorType, String message) {
    ImportRow row = new ImportRow(7, anchor, anchor, attributes, null, null, "hr.csv line 7");

    ImportRow checked = ImportRowCheck.check(row);

    if (errorType == null) {
      assertThat(checked).isSameAs(row);
    } else {
      assertThat(checked.errorType()).isEqualTo(errorType);
      assertThat(checked.errorMessage()).startsWith(message);
      assertThat(checked.reference()).isEqualTo("hr.csv line 7");
      assertThat(checked.position()).isEqualTo(7);
      assertThat(checked.attributes()).isNull();
      // A sound anchor stays: the object is in the source, only unreadable.
      assertThat(checked.anchor())
          .isEqualTo(errorType.equals("AnchorTooLong") || anchor.contains("\0") ? null : anchor);
    }
  }

  @ParameterizedTest
  @MethodSource("rows")
  void errorRowsAndDeletionsPassUnchanged(
      String anchor, Map<String, String> attributes, String errorType, String message) {
    ImportRow error = new ImportRow(3, "x", null, null, "MissingAnchor", "no anchor", "x");
    ImportRow deletion = ImportRow.deletion(4, "E\0", "E\0");

    assertThat(ImportRowCheck.check(error)).isSameAs(error);
    assertThat(ImportRowCheck.check(deletion)).isSameAs(deletion);
  }
}
