package io.jimflow.store;

import java.util.Map;

/**
 * A connector space object as stored.
 *
 * @param attributesJson the attributes as JSON text, parsed by {@link #attributes()} when needed;
 *     null when the query that found the CSO left them out
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

  /**
   * The attributes, parsed from their JSON on every call.
   *
   * @throws IllegalStateException when the CSO was read without them
   */
  public Map<String, String> attributes() {
    if (attributesJson == null) {
      throw new IllegalStateException("CSO " + id + " was read without its attributes");
    }
    return AttributesJson.read(attributesJson);
  }
}
