package io.jimflow.workitem;

import java.time.Instant;
import java.util.List;

/**
 * What {@code show} returns: where the item stands and everything that happened to it.
 *
 * @param instance the current instance number (how many instances the item has had so far)
 * @param startTime the planned start of the current instance; null while suspended
 */
public record WorkItemView(
    String guid,
    String kind,
    WorkItemState state,
    WorkItemCategory category,
    int instance,
    int restartsUsed,
    int maxRestarts,
    Instant startTime,
    String predecessorGuid,
    String stateJson,
    List<WorkItemTransition> log) {

  public WorkItemView {
    log = log == null ? List.of() : List.copyOf(log);
  }
}
