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
 * @param anchorAssignedByTarget the target assigns the anchor when it creates the object (a
 *     directory's {@code entryUUID}); until then the object has a provisional anchor
 */
public record OutboundRule(
    String id,
    String connectedSystem,
    String objectType,
    String anchorAttribute,
    String mvoType,
    List<Condition> scope,
    List<AttributeFlow> flows,
    boolean deprovisionOnDeletion,
    boolean anchorAssignedByTarget) {

  /** The prefix of provisional anchors, followed by the MVO's id. */
  public static final String PROVISIONAL_ANCHOR = "provisional:";

  public OutboundRule {
    scope = List.copyOf(scope);
    flows = List.copyOf(flows);
  }

  public OutboundRule(
      String id,
      String connectedSystem,
      String objectType,
      String anchorAttribute,
      String mvoType,
      List<Condition> scope,
      List<AttributeFlow> flows,
      boolean deprovisionOnDeletion) {
    this(
        id,
        connectedSystem,
        objectType,
        anchorAttribute,
        mvoType,
        scope,
        flows,
        deprovisionOnDeletion,
        false);
  }

  public static boolean isProvisional(String anchor) {
    return anchor != null && anchor.startsWith(PROVISIONAL_ANCHOR);
  }

  public boolean inScope(Map<String, String> mvoAttributes) {
    return scope.stream().allMatch(c -> c.matches(mvoAttributes));
  }
}
