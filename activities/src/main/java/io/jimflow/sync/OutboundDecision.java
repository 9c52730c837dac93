package io.jimflow.sync;

import java.util.Map;

/**
 * What a synchronisation asks of one target system for one MVO.
 *
 * @param anchor the target object's anchor (PROVISION)
 * @param attributes PROVISION: every flowed value; UPDATE: only those that differ
 */
public record OutboundDecision(
    Kind kind,
    String anchor,
    Map<String, String> attributes,
    String errorType,
    String errorMessage) {

  /** The possible outcomes. */
  public enum Kind {
    NONE,
    PROVISION,
    UPDATE,
    DEPROVISION,
    ERROR
  }

  public OutboundDecision {
    attributes = attributes == null ? Map.of() : attributes;
  }

  static final OutboundDecision NONE = new OutboundDecision(Kind.NONE, null, Map.of(), null, null);
}
