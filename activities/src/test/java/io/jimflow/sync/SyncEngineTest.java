package io.jimflow.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.sync.Condition.Operator;
import io.jimflow.sync.InboundDecision.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class SyncEngineTest {

  static final Instant NOW = Instant.parse("2026-03-01T02:00:00Z");

  static final InboundRule HR_PEOPLE =
      new InboundRule(
          "hr-people",
          "hr",
          "person",
          List.of(new Condition("status", Operator.NOT_EQUALS, "Terminated")),
          "person",
          true,
          List.of(new JoinPair("employeeId", "employeeId")),
          List.of(
              new AttributeFlow("employeeId", "employeeId"),
              new AttributeFlow("firstName", "givenName"),
              new AttributeFlow("department", "department")));

  static final OutboundRule DIRECTORY_USERS =
      new OutboundRule(
          "directory-users",
          "directory",
          "user",
          "employeeId",
          "person",
          List.of(new Condition("department", Operator.PRESENT, null)),
          List.of(
              new AttributeFlow("employeeId", "employeeId"),
              new AttributeFlow("givenName", "givenName"),
              new AttributeFlow("department", "department")),
          true);

  static final DeletionRule PERSON_DELETION =
      new DeletionRule("person", Duration.ofDays(7), Set.of("hr"));

  final SyncEngine engine =
      new SyncEngine(
          new SyncRules(List.of(HR_PEOPLE), List.of(DIRECTORY_USERS), List.of(PERSON_DELETION)));

  static CsoFacts hrPerson(String... keyValues) {
    return new CsoFacts("hr", "person", attributes(keyValues), false);
  }

  static Map<String, String> attributes(String... keyValues) {
    Map<String, String> map = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put(keyValues[i], keyValues[i + 1]);
    }
    return map;
  }

  static MvoState person(String id, String... keyValues) {
    return new MvoState(id, "person", attributes(keyValues), null);
  }

  /** A join index over a list of MVOs and CSO joins, as a page lookup would answer. */
  static final class Index implements JoinCandidates {
    final List<MvoState> mvos = new ArrayList<>();
    final Map<String, Set<String>> connectors = new HashMap<>();

    Index with(MvoState mvo, String... systemsJoined) {
      mvos.add(mvo);
      connectors.put(mvo.id(), Set.of(systemsJoined));
      return this;
    }

    @Override
    public List<MvoState> find(String mvoType, String mvoAttribute, String value) {
      return mvos.stream()
          .filter(m -> m.type().equals(mvoType) && value.equals(m.attributes().get(mvoAttribute)))
          .toList();
    }

    @Override
    public boolean hasConnectorIn(String mvoId, String connectedSystem) {
      return connectors.getOrDefault(mvoId, Set.of()).contains(connectedSystem);
    }
  }

  @Nested
  class Scoping {
    @Test
    void aRuleAppliesOnlyToObjectsMatchingAllItsConditions() {
      assertThat(engine.inboundRuleInScope(hrPerson("employeeId", "E1", "status", "Active")))
          .contains(HR_PEOPLE);
      assertThat(engine.inboundRuleInScope(hrPerson("employeeId", "E1", "status", "Terminated")))
          .isEmpty();
    }

    @Test
    void conditionsTreatEmptyValuesAsAbsent() {
      assertThat(new Condition("mail", Operator.PRESENT, null).matches(attributes("mail", "")))
          .isFalse();
      assertThat(new Condition("mail", Operator.ABSENT, null).matches(attributes())).isTrue();
      assertThat(new Condition("id", Operator.STARTS_WITH, "E").matches(attributes("id", "E17")))
          .isTrue();
      assertThat(new Condition("id", Operator.EQUALS, "E1").matches(attributes("id", "E17")))
          .isFalse();
    }

    @Test
    void aJoinedObjectLeavingTheScopeIsDisconnectedOutOfScope() {
      MvoState mvo = person("m1", "employeeId", "E1");
      InboundDecision decision =
          engine.decideInbound(
              hrPerson("employeeId", "E1", "status", "Terminated"), mvo, new Index());
      assertThat(decision.kind()).isEqualTo(Kind.DISCONNECT_OUT_OF_SCOPE);
      assertThat(decision.mvoId()).isEqualTo("m1");
    }

    @Test
    void anUnjoinedObjectOutOfScopeIsLeftAlone() {
      InboundDecision decision =
          engine.decideInbound(
              hrPerson("employeeId", "E1", "status", "Terminated"), null, new Index());
      assertThat(decision.kind()).isEqualTo(Kind.NONE);
    }

    @Test
    void aJoinedObjectOfASystemWithoutInboundRulesStaysJoined() {
      CsoFacts target = new CsoFacts("directory", "user", attributes("employeeId", "E1"), false);
      assertThat(engine.decideInbound(target, person("m1"), new Index()).kind())
          .isEqualTo(Kind.NONE);
    }
  }

  @Nested
  class ProjectionAndJoin {
    @Test
    void anObjectInScopeThatJoinsNothingIsProjectedWithItsFlowedAttributes() {
      InboundDecision decision =
          engine.decideInbound(
              hrPerson("employeeId", "E1", "firstName", "Ada", "department", ""),
              null,
              new Index());
      assertThat(decision.kind()).isEqualTo(Kind.PROJECT);
      assertThat(decision.mvoAttributeChanges())
          .containsExactlyInAnyOrderEntriesOf(Map.of("employeeId", "E1", "givenName", "Ada"));
    }

    @Test
    void anObjectJoinsTheMvoWhoseAttributeMatchesAndFlowsWhatDiffers() {
      Index index = new Index().with(person("m1", "employeeId", "E1", "givenName", "Ada"));
      InboundDecision decision =
          engine.decideInbound(
              hrPerson("employeeId", "E1", "firstName", "Ada", "department", "R&D"), null, index);
      assertThat(decision.kind()).isEqualTo(Kind.JOIN);
      assertThat(decision.mvoId()).isEqualTo("m1");
      assertThat(decision.mvoAttributeChanges()).containsExactly(Map.entry("department", "R&D"));
    }

    @Test
    void twoMatchingMvosMakeTheJoinAmbiguous() {
      Index index =
          new Index().with(person("m1", "employeeId", "E1")).with(person("m2", "employeeId", "E1"));
      InboundDecision decision = engine.decideInbound(hrPerson("employeeId", "E1"), null, index);
      assertThat(decision.kind()).isEqualTo(Kind.ERROR);
      assertThat(decision.errorType()).isEqualTo("AmbiguousJoin");
    }

    @Test
    void anMvoAlreadyJoinedInTheSameSystemIsNotJoinedTwice() {
      Index index = new Index().with(person("m1", "employeeId", "E1"), "hr");
      InboundDecision decision = engine.decideInbound(hrPerson("employeeId", "E1"), null, index);
      assertThat(decision.errorType()).isEqualTo("ExistingJoin");
    }

    @Test
    void withoutProjectionAnUnmatchedObjectStaysUnjoined() {
      InboundRule joinOnly =
          new InboundRule(
              "j",
              "badges",
              "badge",
              List.of(),
              "person",
              false,
              List.of(new JoinPair("owner", "employeeId")),
              List.of());
      SyncEngine joinOnlyEngine =
          new SyncEngine(new SyncRules(List.of(joinOnly), List.of(), List.of()));
      CsoFacts badge = new CsoFacts("badges", "badge", attributes("owner", "E9"), false);
      assertThat(joinOnlyEngine.decideInbound(badge, null, new Index()).kind())
          .isEqualTo(Kind.NONE);
    }
  }

  @Nested
  class AttributeFlowRules {
    @Test
    void aJoinedObjectFlowsOnlyChangedValuesAndRemovesEmptiedOnes() {
      MvoState mvo = person("m1", "employeeId", "E1", "givenName", "Ada", "department", "R&D");
      InboundDecision decision =
          engine.decideInbound(
              hrPerson("employeeId", "E1", "firstName", "Adah", "department", ""),
              mvo,
              new Index());
      assertThat(decision.kind()).isEqualTo(Kind.FLOW);
      Map<String, String> expected = new HashMap<>();
      expected.put("givenName", "Adah");
      expected.put("department", null);
      assertThat(decision.mvoAttributeChanges()).isEqualTo(expected);
    }

    @Test
    void aJoinedObjectWithNothingNewChangesNothing() {
      MvoState mvo = person("m1", "employeeId", "E1", "givenName", "Ada");
      InboundDecision decision =
          engine.decideInbound(hrPerson("employeeId", "E1", "firstName", "Ada"), mvo, new Index());
      assertThat(decision.kind()).isEqualTo(Kind.NONE);
    }
  }

  @Nested
  class Provisioning {
    @Test
    void anMvoInScopeWithoutATargetObjectIsProvisionedUnderItsAnchor() {
      OutboundDecision decision =
          SyncEngine.decideOutbound(
              DIRECTORY_USERS,
              person("m1", "employeeId", "E1", "givenName", "Ada", "department", "R&D"),
              null);
      assertThat(decision.kind()).isEqualTo(OutboundDecision.Kind.PROVISION);
      assertThat(decision.anchor()).isEqualTo("E1");
      assertThat(decision.attributes()).containsEntry("givenName", "Ada");
    }

    @Test
    void anMvoWithoutAnAnchorValueCannotBeProvisioned() {
      OutboundDecision decision =
          SyncEngine.decideOutbound(DIRECTORY_USERS, person("m1", "department", "R&D"), null);
      assertThat(decision.errorType()).isEqualTo("MissingAnchor");
    }

    @Test
    void anMvoOutOfTheRulesScopeIsNotProvisioned() {
      assertThat(
              SyncEngine.decideOutbound(DIRECTORY_USERS, person("m1", "employeeId", "E1"), null)
                  .kind())
          .isEqualTo(OutboundDecision.Kind.NONE);
    }

    @Test
    void onlyValuesThatNeitherTheTargetNorAnUnconfirmedExportHoldAreExported() {
      MvoState mvo = person("m1", "employeeId", "E1", "givenName", "Ada", "department", "Sales");
      TargetFacts target =
          new TargetFacts(
              attributes("employeeId", "E1", "givenName", "Ad", "department", "R&D"),
              attributes("givenName", "Ada"),
              false);
      OutboundDecision decision = SyncEngine.decideOutbound(DIRECTORY_USERS, mvo, target);
      assertThat(decision.kind()).isEqualTo(OutboundDecision.Kind.UPDATE);
      assertThat(decision.attributes()).containsExactly(Map.entry("department", "Sales"));
    }

    @Test
    void aDeletedMvoIsDeprovisionedOnceWhenTheRuleSaysSo() {
      TargetFacts target = new TargetFacts(attributes("employeeId", "E1"), Map.of(), false);
      assertThat(SyncEngine.decideOutbound(DIRECTORY_USERS, null, target).kind())
          .isEqualTo(OutboundDecision.Kind.DEPROVISION);
      TargetFacts alreadyGoing = new TargetFacts(attributes("employeeId", "E1"), Map.of(), true);
      assertThat(SyncEngine.decideOutbound(DIRECTORY_USERS, null, alreadyGoing).kind())
          .isEqualTo(OutboundDecision.Kind.NONE);
    }
  }

  @Nested
  class DisconnectionAndDeletion {
    @Test
    void anObjectThatLeftItsSystemIsDisconnected() {
      CsoFacts gone = new CsoFacts("hr", "person", attributes("employeeId", "E1"), true);
      InboundDecision decision = engine.decideInbound(gone, person("m1"), new Index());
      assertThat(decision.kind()).isEqualTo(Kind.DISCONNECT);
      assertThat(decision.mvoId()).isEqualTo("m1");
    }

    @Test
    void anMvoWithoutAuthoritativeConnectorsBecomesEligibleAfterTheGracePeriod() {
      assertThat(engine.deletionEligibleAt(person("m1"), List.of("directory"), NOW))
          .isEqualTo(NOW.plus(Duration.ofDays(7)));
    }

    @Test
    void anAuthoritativeConnectorKeepsOrBringsBackAnMvo() {
      MvoState scheduled = new MvoState("m1", "person", Map.of(), NOW.minusSeconds(60));
      assertThat(engine.deletionEligibleAt(scheduled, List.of("hr"), NOW)).isNull();
    }

    @Test
    void aScheduledDeletionKeepsItsDate() {
      Instant earlier = NOW.plus(Duration.ofDays(2));
      MvoState scheduled = new MvoState("m1", "person", Map.of(), earlier);
      assertThat(engine.deletionEligibleAt(scheduled, List.of(), NOW)).isEqualTo(earlier);
    }

    @Test
    void mvosOfATypeWithoutDeletionRuleAreNeverScheduled() {
      MvoState group = new MvoState("g1", "group", Map.of(), null);
      assertThat(engine.deletionEligibleAt(group, List.of(), NOW)).isNull();
    }
  }

  @Nested
  class ExportConfirmationAndDrift {
    @Test
    void anExportIsConfirmedWhenTheImportFindsItsValues() {
      Map<String, String> exported = attributes("givenName", "Ada", "department", "");
      assertThat(
              SyncEngine.isConfirmed(ExportChange.Update, exported, attributes("givenName", "Ada")))
          .isTrue();
      assertThat(
              SyncEngine.isConfirmed(ExportChange.Update, exported, attributes("givenName", "Bob")))
          .isFalse();
      assertThat(SyncEngine.isConfirmed(ExportChange.Create, exported, null)).isFalse();
    }

    @Test
    void aDeleteIsConfirmedWhenTheObjectIsGone() {
      assertThat(SyncEngine.isConfirmed(ExportChange.Delete, Map.of(), null)).isTrue();
      assertThat(
              SyncEngine.isConfirmed(ExportChange.Delete, Map.of(), attributes("employeeId", "E1")))
          .isFalse();
    }

    @Test
    void aTargetValueDifferingFromWhatTheMvoFlowsOutIsDrift() {
      MvoState mvo = person("m1", "employeeId", "E1", "givenName", "Ada", "department", "R&D");
      Map<String, String> corrections =
          SyncEngine.detectDrift(
              DIRECTORY_USERS,
              mvo,
              attributes("employeeId", "E1", "givenName", "Eve", "department", "R&D"));
      assertThat(corrections).containsExactly(Map.entry("givenName", "Ada"));
    }

    @Test
    void aTargetMatchingTheMvoHasNoDrift() {
      MvoState mvo = person("m1", "employeeId", "E1", "givenName", "Ada", "department", "R&D");
      assertThat(
              SyncEngine.detectDrift(
                  DIRECTORY_USERS,
                  mvo,
                  attributes("employeeId", "E1", "givenName", "Ada", "department", "R&D")))
          .isEmpty();
    }

    @Test
    void applyingExportsToATargetRowOverwritesValuesOrDropsTheRow() {
      Map<String, String> row = attributes("employeeId", "E1", "givenName", "Ad");
      assertThat(SyncEngine.applyExport(row, ExportChange.Update, attributes("givenName", "Ada")))
          .containsEntry("givenName", "Ada")
          .containsEntry("employeeId", "E1");
      assertThat(SyncEngine.applyExport(row, ExportChange.Delete, Map.of())).isNull();
    }
  }
}
