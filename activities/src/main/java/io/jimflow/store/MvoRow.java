package io.jimflow.store;

import java.time.Instant;
import java.util.Map;

/** A metaverse object as stored. */
public record MvoRow(
    String id, String objectType, Map<String, String> attributes, Instant deletionEligibleAt) {

  public MvoRow {
    attributes = Map.copyOf(attributes);
  }
}
