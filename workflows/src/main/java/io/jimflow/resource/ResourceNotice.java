package io.jimflow.resource;

import java.time.Instant;

/**
 * What a resource lock tells a claimant: its claim was granted, or it waits and who holds the
 * resource meanwhile. Also sent to the holder now and then to learn whether it still runs.
 *
 * @param holderId the workflow id of the current holder (the claimant itself once granted)
 * @param heldSince when the current holder got the resource
 */
public record ResourceNotice(
    String resource,
    String claimId,
    Kind kind,
    String holderId,
    String holderDescription,
    Instant heldSince) {

  /** What a notice says. */
  public enum Kind {
    GRANTED,
    WAITING,
    /** A liveness probe of the holder; it needs no answer. */
    PROBE
  }

  /** The line a waiting step shows, e.g. {@code waiting for HR System, held by X since T}. */
  public String describeWait() {
    return "waiting for "
        + resource
        + (holderId == null ? "" : ", held by " + holderId)
        + (heldSince == null ? "" : " since " + heldSince);
  }
}
