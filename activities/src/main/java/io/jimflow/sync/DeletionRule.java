package io.jimflow.sync;

import java.time.Duration;
import java.util.Set;

/**
 * When MVOs of a type are deleted: once no CSO of an authoritative system is joined to them any
 * more, after a grace period (during which a returning CSO joins them again).
 *
 * @param authoritativeSystems the systems whose objects keep an MVO alive
 */
public record DeletionRule(String mvoType, Duration gracePeriod, Set<String> authoritativeSystems) {

  public DeletionRule {
    authoritativeSystems = Set.copyOf(authoritativeSystems);
  }
}
