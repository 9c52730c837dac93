package io.jimflow.resource;

import java.util.List;

/**
 * A resource lock's state, carried across continue-as-new.
 *
 * @param holder the claim that holds the resource, or null
 * @param waiting claims in arrival order
 */
public record ResourceLockState(
    String resource, ResourceClaim holder, List<ResourceClaim> waiting) {

  public ResourceLockState {
    waiting = waiting == null ? List.of() : List.copyOf(waiting);
  }

  public static ResourceLockState free(String resource) {
    return new ResourceLockState(resource, null, List.of());
  }
}
