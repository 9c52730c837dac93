package io.jimflow.sync;

import java.time.Instant;
import java.util.Map;

/** What the engine needs to know about an MVO. */
public record MvoState(
    String id, String type, Map<String, String> attributes, Instant deletionEligibleAt) {

  public MvoState {
    attributes = Map.copyOf(attributes);
  }
}
