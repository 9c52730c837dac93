package io.jimflow.sync;

import java.util.Map;

/**
 * What the engine needs to know about a CSO.
 *
 * @param obsolete true when the CSO has left its system (absent from a full import)
 */
public record CsoFacts(
    String connectedSystem, String objectType, Map<String, String> attributes, boolean obsolete) {

  public CsoFacts {
    attributes = Map.copyOf(attributes);
  }
}
