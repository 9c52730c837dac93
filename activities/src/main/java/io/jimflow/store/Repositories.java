package io.jimflow.store;

import java.time.Clock;
import java.util.Map;
import java.util.Set;

/**
 * The repositories of the identity data that import, synchronisation and housekeeping share: the
 * connector space, the metaverse, pending exports and the change history, all over one clock.
 */
public record Repositories(
    ConnectorSpace connectorSpace,
    Metaverse metaverse,
    PendingExports pendingExports,
    ChangeHistory history) {

  /**
   * @param joinKeys the metaverse's key attributes by object type (empty where nothing joins)
   */
  public static Repositories create(Clock clock, Map<String, Set<String>> joinKeys) {
    return new Repositories(
        new ConnectorSpace(clock),
        new Metaverse(clock, joinKeys),
        new PendingExports(clock),
        new ChangeHistory(clock));
  }
}
