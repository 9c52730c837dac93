package io.jimflow.resource;

import java.util.List;

/**
 * The resources a step holds while it runs, in the order they are taken (see {@link
 * Resources#inLockOrder}).
 */
public record StepResources(List<String> resources) {

  public StepResources {
    resources = Resources.inLockOrder(resources == null ? List.of() : resources);
  }
}
