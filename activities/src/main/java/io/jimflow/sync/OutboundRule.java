package io.jimflow.sync;

import java.util.List;
import java.util.Map;

/**
 * Provisions MVOs of a type to a target system and keeps their flowed attributes there.
 *
 * @param scope conditions on the MVO's attributes; empty = every MVO of the type
 * @param flows MVO attribute → target attribute; one of them must fill the target's anchor
 * @param deprovisionOnDeletion whether the target object is deleted when the MVO is deleted or
 *     leaves the scope
 */
public record OutboundRule(
    String id,
    String connectedSystem,
    String objectType,
    String anchorAttribute,
    String mvoType,
    List<Condition> scope,
    List<AttributeFlow> flows,
    boolean deprovisionOnDeletion) {

  public OutboundRule {
    scope = List.copyOf(scope);
    flows = List.copyOf(flows);
  }

  public boolean inScope(Map<String, String> mvoAttributes) {
    return scope.stream().allMatch(c -> c.matches(mvoAttributes));
  }
}
