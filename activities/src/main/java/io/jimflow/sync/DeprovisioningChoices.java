package io.jimflow.sync;

import java.util.List;
import java.util.Map;

/**
 * What deleting an MVO deprovisions: for each outbound rule of its type, in rule order, whether the
 * MVO's object in that rule's target system is deleted there too (the rule deprovisions on
 * deletion, the object exists, and no export deletes it already). Pure: the store reads the facts
 * and writes the Delete exports.
 */
public final class DeprovisioningChoices {

  private DeprovisioningChoices() {}

  /**
   * The rules whose target object the MVO's deletion deprovisions, in the order of {@code rules}.
   *
   * @param rules the outbound rules of the MVO's type
   * @param targets the facts of the MVO's object in each target system, by connected system (a
   *     system without one is absent)
   */
  public static List<OutboundRule> deprovisioned(
      List<OutboundRule> rules, Map<String, TargetFacts> targets) {
    return rules.stream()
        .filter(
            rule -> {
              TargetFacts target = targets.get(rule.connectedSystem());
              return target != null
                  && SyncEngine.decideOutbound(rule, null, target).kind()
                      == OutboundDecision.Kind.DEPROVISION;
            })
        .toList();
  }
}
