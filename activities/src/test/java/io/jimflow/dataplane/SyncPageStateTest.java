package io.jimflow.dataplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.store.MvoRow;
import io.jimflow.sync.MvoState;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Join lookups of a page find MVOs by the values they hold, several values in any order. */
class SyncPageStateTest {

  private final SyncPageState state = new SyncPageState(Map.of("person", Set.of("mail")));

  private static MvoRow person(String id, String mail) {
    return new MvoRow(id, "person", Map.of("mail", mail), null);
  }

  private Set<String> found(String mail) {
    return Set.copyOf(state.find("person", "mail", mail).stream().map(MvoState::id).toList());
  }

  @Test
  void anMvoHoldingSeveralValuesInAnotherOrderIsFoundByThemInEitherOrder() {
    state.putAll(Map.of("m1", person("m1", "b@example.org\na@example.org")));

    // The sync engine asks in sorted order; any order finds the same MVO.
    assertThat(found("a@example.org\nb@example.org")).containsExactly("m1");
    assertThat(found("b@example.org\na@example.org")).containsExactly("m1");
    assertThat(found("a@example.org")).isEmpty();
  }

  @Test
  void anMvoWhoseValuesChangeIsFoundByItsNewValuesOnly() {
    state.putAll(Map.of("m1", person("m1", "b@example.org\na@example.org")));
    Map<String, String> changes = new HashMap<>();
    changes.put("mail", "c@example.org\nb@example.org");

    state.changeMvo("m1", changes);

    assertThat(found("a@example.org\nb@example.org")).isEmpty();
    assertThat(found("b@example.org\nc@example.org")).containsExactly("m1");
  }

  @Test
  void aSingleValueIsFoundAsItIs() {
    state.putAll(Map.of("m1", person("m1", "a@example.org")));

    assertThat(found("a@example.org")).containsExactly("m1");
    assertThat(found("")).isEmpty();
  }
}
