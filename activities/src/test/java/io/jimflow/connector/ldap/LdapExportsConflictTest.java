package io.jimflow.connector.ldap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which exports of a batch go into flight together: never two that touch the same DN (the directory
 * may apply operations in flight together in any order).
 */
class LdapExportsConflictTest {

  @ParameterizedTest(name = "{0} from {1}: {2}")
  @CsvSource({
    // the DNs each export touches ('/' between exports, '+' between DNs of one), from, end
    "a/b/c, 0, 3",
    "a/b/c, 1, 3",
    "a/b/a, 0, 2",
    "a/b/a, 2, 3",
    "a+b/c/b, 0, 2",
    "a/a/a, 0, 1",
    "a/a/a, 1, 2",
    "a+x/b/x+c, 0, 2",
    "a+x/b/x+c, 2, 3",
    // a delete and a create or rename of one DN, in that order
    "old/new+old, 0, 1",
  })
  void exportsGoTogetherUpToTheFirstThatTouchesADnAnEarlierOneTouches(
      String batch, int from, int end) {
    List<Set<String>> touches = new ArrayList<>();
    for (String export : batch.split("/")) {
      touches.add(Set.of(export.split("\\+")));
    }
    assertThat(ExportPlan.conflictFreeEnd(touches, from)).isEqualTo(end);
  }
}
