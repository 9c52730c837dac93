package io.jimflow.sync;

import java.util.List;

/** Every sync rule of a configuration. */
public record SyncRules(
    List<InboundRule> inbound, List<OutboundRule> outbound, List<DeletionRule> deletion) {

  public SyncRules {
    inbound = List.copyOf(inbound);
    outbound = List.copyOf(outbound);
    deletion = List.copyOf(deletion);
  }
}
