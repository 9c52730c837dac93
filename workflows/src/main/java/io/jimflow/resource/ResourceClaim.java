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
 */
public record ResourceClaim(String claimId, String holderId, String description, Instant since) {

  ResourceClaim grantedAt(Instant at) {
    return new ResourceClaim(claimId, holderId, description, at);
  }
}
