package io.jimflow.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OneAtATimeTest {

  /** Commits that fail for any page holding one of {@code bad}, with this SQLSTATE. */
  static final class Pages {
    final Set<String> bad;
    final String state;
    final List<List<String>> committed = new ArrayList<>();
    final List<List<String>> tried = new ArrayList<>();
    final Map<String, String> refused = new LinkedHashMap<>();

    Pages(Set<String> bad, String state) {
      this.bad = bad;
      this.state = state;
    }

    void run(List<String> objects) {
      OneAtATime.commit(
          objects,
          some -> {
            tried.add(some);
            if (some.stream().anyMatch(bad::contains)) {
              throw new StoreException(
                  "store transaction failed", new SQLException("refused " + some, state));
            }
            committed.add(some);
          },
          (object, failure) -> refused.put(object, OneAtATime.reason(failure)));
    }
  }

  @Test
  void aPageTheStoreTakesIsCommittedOnce() {
    Pages pages = new Pages(Set.of(), "23503");
    pages.run(List.of("a", "b", "c"));
    assertThat(pages.committed).containsExactly(List.of("a", "b", "c"));
    assertThat(pages.refused).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({"23503", "23505", "22021", "22001"})
  void aRefusedPageIsCommittedOneObjectAtATimeAndOnlyTheRefusedOnesAreErrors(String state) {
    Pages pages = new Pages(Set.of("b", "d"), state);
    pages.run(List.of("a", "b", "c", "d", "e"));
    assertThat(pages.committed).containsExactly(List.of("a"), List.of("c"), List.of("e"));
    assertThat(pages.refused).containsOnlyKeys("b", "d");
    assertThat(pages.refused.get("b")).isEqualTo("refused [b]");
  }

  @Test
  void aPageOfOneRefusedIsNotTriedTwice() {
    Pages pages = new Pages(Set.of("a"), "23503");
    pages.run(List.of("a"));
    assertThat(pages.tried).containsExactly(List.of("a"));
    assertThat(pages.refused).containsOnlyKeys("a");
  }

  @ParameterizedTest
  @CsvSource({"08006", "40001", "40P01", "57P01", "42P01"})
  void aFailureOfTheStoreItselfIsThrownForTheAttemptToBeRetried(String state) {
    Pages pages = new Pages(Set.of("b"), state);
    assertThatThrownBy(() -> pages.run(List.of("a", "b", "c"))).isInstanceOf(StoreException.class);
    assertThat(pages.committed).isEmpty();
    assertThat(pages.tried).hasSize(1);
  }

  @Test
  void aSupersededAttemptStops() {
    assertThatThrownBy(
            () ->
                OneAtATime.commit(
                    List.of("a", "b"),
                    some -> {
                      throw new SupersededAttemptException("taken over");
                    },
                    (object, failure) -> {}))
        .isInstanceOf(SupersededAttemptException.class);
  }

  @Test
  void theReasonIsTheDriversFirstLineBounded() {
    StoreException failure =
        new StoreException(
            "store transaction failed",
            new SQLException("ERROR: violates constraint\n  Detail: more", "23503"));
    assertThat(OneAtATime.reason(failure)).isEqualTo("ERROR: violates constraint");
    StoreException longOne =
        new StoreException("failed", new SQLException("x".repeat(2_000), "22001"));
    assertThat(OneAtATime.reason(longOne)).hasSize(501);
  }
}
