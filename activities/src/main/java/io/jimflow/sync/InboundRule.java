package io.jimflow.sync;

import java.util.List;
import java.util.Map;

/**
 * Brings CSOs of one system and object type into the metaverse.
 *
 * @param scope all conditions must hold for a CSO to be in scope; empty = every CSO
 * @param project whether an in-scope CSO that joins no MVO creates (projects) a new one
 * @param join tried in order; the first pair that finds an MVO decides the join
 */
public record InboundRule(
    String id,
    String connectedSystem,
    String objectType,
    List<Condition> scope,
    String mvoType,
    boolean project,
    List<JoinPair> join,
    List<AttributeFlow> flows) {

  public InboundRule {
    scope = List.copyOf(scope);
    join = List.copyOf(join);
    flows = List.copyOf(flows);
  }

  public boolean inScope(Map<String, String> csoAttributes) {
    return scope.stream().allMatch(c -> c.matches(csoAttributes));
  }
}
