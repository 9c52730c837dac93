package io.jimflow.schedule.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Short hashes of the parts of a schedule definition, stored with the deployed schedule so that a
 * later plan compares what the user wrote rather than the server's normalised form of it.
 *
 * @param spec when it fires (trigger, time zone)
 * @param action what it starts (steps, names, failure policy, ...)
 * @param policies overlap policy and catch-up window
 */
public record Fingerprint(String spec, String action, String policies) {

  /** The memo form, a map so that the server stores it as readable JSON. */
  public Map<String, String> toMemo() {
    return Map.of("spec", spec, "action", action, "policies", policies);
  }

  /** Reads the memo form; null when absent or not in the expected shape. */
  public static Fingerprint fromMemo(Map<?, ?> memo) {
    if (memo == null
        || !(memo.get("spec") instanceof String spec)
        || !(memo.get("action") instanceof String action)
        || !(memo.get("policies") instanceof String policies)) {
      return null;
    }
    return new Fingerprint(spec, action, policies);
  }

  /** The names of the parts that differ from {@code deployed}, every part if it is unknown. */
  public List<String> differencesFrom(Fingerprint deployed) {
    List<String> changed = new ArrayList<>();
    if (deployed == null || !spec.equals(deployed.spec)) {
      changed.add("spec");
    }
    if (deployed == null || !action.equals(deployed.action)) {
      changed.add("action");
    }
    if (deployed == null || !policies.equals(deployed.policies)) {
      changed.add("policies");
    }
    return changed;
  }
}
