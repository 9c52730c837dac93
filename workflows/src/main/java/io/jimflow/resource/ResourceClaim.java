package io.jimflow.resource;

import java.time.Instant;

/**
 * One request for a resource: who asks ({@code holderId}, the workflow id the lock signals back)
 * and what for.
 *
 * @param claimId unique per request; requesting the same claim twice is harmless
 * @param holderId the requesting workflow's id; the lock sends it {@link ResourceNotice}s and
 *     treats the claim as dead once that workflow is closed
 * @param description what holds it, e.g. {@code Nightly HR Sync / HR System - Full Import}
 * @param since when the claim was made, or when it was granted once it holds the resource
 * @param holderRunId the requesting run: the lock signals that run only, so a later run of the same
 *     workflow id is never taken for the holder, and honours a release only once that run no longer
 *     holds the claim; null in claims of claimants from before run ids (signalled by workflow id)
 */
public record ResourceClaim(
    String claimId, String holderId, String description, Instant since, String holderRunId) {

  ResourceClaim grantedAt(Instant at) {
    return new ResourceClaim(claimId, holderId, description, at, holderRunId);
  }

  /** Where the holder is signalled: its run when the claim names one. */
  String describeHolder() {
    return holderRunId == null ? holderId : holderId + " (run " + holderRunId + ")";
  }
}
