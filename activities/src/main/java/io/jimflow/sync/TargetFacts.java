package io.jimflow.sync;

import java.util.Map;

/**
 * What the engine needs to know about an MVO's object in a target system.
 *
 * @param attributes as last imported from the target (empty before the first confirming import)
 * @param pendingValues what unconfirmed exports will write, applied over {@code attributes}
 * @param deletionPending whether an unconfirmed export already deletes it
 */
public record TargetFacts(
    Map<String, String> attributes, Map<String, String> pendingValues, boolean deletionPending) {

  public TargetFacts {
    attributes = Map.copyOf(attributes);
    pendingValues = Map.copyOf(pendingValues);
  }
}
