package io.jimflow.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.common.JimflowSearchAttributes.Registration;
import io.jimflow.common.SearchAttributeSetup.Mistyped;
import io.jimflow.common.SearchAttributeSetup.Report;
import io.temporal.api.enums.v1.IndexedValueType;
import java.util.List;
import org.junit.jupiter.api.Test;

class SearchAttributeSetupTest {

  private static final Registration STEP_GROUP = new Registration("JimflowStepGroup", "Int");
  private static final Registration STATUS = new Registration("JimflowStatus", "Keyword");

  @Test
  void aReadyNamespaceHasNoProblemsAndNeedsNoFix() {
    Report report = new Report("default", List.of(STATUS), List.of(), List.of(), List.of());

    assertThat(report.ready()).isTrue();
    assertThat(report.problems()).isEmpty();
    assertThat(report.fixes("--address temporal:7233")).isEmpty();
  }

  @Test
  void aMissingAttributeIsNamedWithTheSetupCommandForItsNamespace() {
    Report report = new Report("hr", List.of(), List.of(), List.of(STATUS), List.of());

    assertThat(report.problems())
        .containsExactly("search attribute JimflowStatus (Keyword) is not registered");
    assertThat(report.fixes("--address temporal:7233"))
        .containsExactly("./jimflow setup --address temporal:7233 --namespace hr");
  }

  @Test
  void aMistypedAttributeIsRemovedFirstThenSetUpAgain() {
    Report report =
        new Report(
            "default",
            List.of(),
            List.of(),
            List.of(),
            List.of(new Mistyped(STEP_GROUP, "Keyword")));

    assertThat(report.ready()).isFalse();
    assertThat(report.problems())
        .containsExactly(
            "search attribute JimflowStepGroup is registered as Keyword, jimflow needs Int");
    assertThat(report.fixes(""))
        .hasSize(2)
        .first()
        .asString()
        .startsWith(
            "temporal operator search-attribute remove --namespace default --name JimflowStepGroup");
    assertThat(report.fixes("")).last().isEqualTo("./jimflow setup --namespace default");
  }

  @Test
  void serverTypesAreNamedAsTheTemporalCliNamesThem() {
    assertThat(SearchAttributeSetup.typeName(IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD))
        .isEqualTo("Keyword");
    assertThat(SearchAttributeSetup.typeName(IndexedValueType.INDEXED_VALUE_TYPE_INT))
        .isEqualTo("Int");
    assertThat(SearchAttributeSetup.typeName(IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST))
        .isEqualTo("KeywordList");
    for (Registration sa : JimflowSearchAttributes.ALL) {
      assertThat(SearchAttributeSetup.typeName(SearchAttributeSetup.indexedType(sa.type())))
          .isEqualTo(sa.type());
    }
  }
}
