package io.jimflow.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeprovisioningChoicesTest {

  private static OutboundRule rule(String system, boolean deprovisionOnDeletion) {
    return new OutboundRule(
        system + "-users",
        system,
        "user",
        "uid",
        "person",
        List.of(new Condition("department", Condition.Operator.PRESENT, null)),
        List.of(new AttributeFlow("employeeId", "uid")),
        deprovisionOnDeletion);
  }

  private static TargetFacts target(boolean deletionPending) {
    return new TargetFacts(Map.of("uid", "e1"), Map.of(), deletionPending);
  }

  /**
   * Rules: "directory" and "mail" rules of the MVO's type, each deprovisioning on deletion or not;
   * targets: whether the MVO has an object in the system and whether an export already deletes it.
   * The result lists the systems whose object is deprovisioned, in rule order.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "both deprovision, both have objects        | true  | true  | present | present | directory,mail",
        "a rule that keeps its objects              | false | true  | present | present | mail",
        "no rule deprovisions                       | false | false | present | present | ''",
        "no object in a system: nothing to delete   | true  | true  | absent  | present | mail",
        "no object anywhere                         | true  | true  | absent  | absent  | ''",
        "a Delete export already pending            | true  | true  | deleting| present | mail",
        "pending everywhere                         | true  | true  | deleting| deleting| ''",
        "kept and pending                           | false | true  | present | deleting| ''",
      })
  void whatAnMvosDeletionDeprovisions(
      String situation,
      boolean directoryDeprovisions,
      boolean mailDeprovisions,
      String directoryTarget,
      String mailTarget,
      String expected) {
    List<OutboundRule> rules =
        List.of(rule("directory", directoryDeprovisions), rule("mail", mailDeprovisions));
    Map<String, TargetFacts> targets = new HashMap<>();
    put(targets, "directory", directoryTarget);
    put(targets, "mail", mailTarget);

    List<String> deprovisioned =
        DeprovisioningChoices.deprovisioned(rules, targets).stream()
            .map(OutboundRule::connectedSystem)
            .toList();

    assertThat(deprovisioned)
        .as(situation)
        .isEqualTo(expected.isEmpty() ? List.of() : List.of(expected.split(",")));
  }

  private static void put(Map<String, TargetFacts> targets, String system, String state) {
    switch (state) {
      case "present" -> targets.put(system, target(false));
      case "deleting" -> targets.put(system, target(true));
      case "absent" -> {}
      default -> throw new IllegalArgumentException(state);
    }
  }

  @ParameterizedTest
  @CsvSource({"true", "false"})
  void noRulesDeprovisionNothing(boolean pending) {
    assertThat(DeprovisioningChoices.deprovisioned(List.of(), Map.of("directory", target(pending))))
        .isEmpty();
  }
}
