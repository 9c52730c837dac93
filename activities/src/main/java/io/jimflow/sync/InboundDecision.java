package io.jimflow.sync;

import java.util.Map;

/**
 * What a synchronisation does with one CSO.
 *
 * @param mvoId the MVO joined (JOIN), kept (FLOW) or left (DISCONNECT*); null for PROJECT and NONE
 * @param mvoAttributeChanges values to write to the MVO (null value = remove the attribute); for
 *     PROJECT the new MVO's attributes
 */
public record InboundDecision(
    Kind kind,
    String mvoId,
    Map<String, String> mvoAttributeChanges,
    String errorType,
    String errorMessage) {

  /** The possible outcomes. */
  public enum Kind {
    /** Nothing to do: out of scope and not joined, or joined with nothing to flow. */
    NONE,
    PROJECT,
    JOIN,
    FLOW,
    /** The CSO left its system. */
    DISCONNECT,
    /** The CSO no longer matches its rule's scope. */
    DISCONNECT_OUT_OF_SCOPE,
    ERROR
  }

  public InboundDecision {
    mvoAttributeChanges = mvoAttributeChanges == null ? Map.of() : mvoAttributeChanges;
  }

  static InboundDecision none(String mvoId) {
    return new InboundDecision(Kind.NONE, mvoId, Map.of(), null, null);
  }

  static InboundDecision error(String type, String message) {
    return new InboundDecision(Kind.ERROR, null, Map.of(), type, message);
  }
}
