package io.jimflow.store;

import java.util.Map;

/**
 * A connector space object as stored.
 *
 * @param attributesJson the attributes as JSON text; parse with {@link #attributes()} when needed
 * @param lastSeenRun the import run that last found it in its system
 */
public record CsoRow(
    long id,
    String connectedSystem,
    String objectType,
    String anchor,
    String attributesJson,
    String contentHash,
    CsoState state,
    String mvoId,
    String joinType,
    boolean syncPending,
    String lastSeenRun) {

  public Map<String, String> attributes() {
    return AttributesJson.read(attributesJson);
  }
}
