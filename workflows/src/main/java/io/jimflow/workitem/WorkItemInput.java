package io.jimflow.workitem;

import java.util.List;

/**
 * The input of one instance (one workflow run); a restart continues as new with the next instance.
 *
 * @param instance 1 for a freshly scheduled item, +1 for every restart
 * @param restartsUsed timeout and error retries already used, counted against maxRestarts
 * @param log the full transition log of all earlier instances
 */
public record WorkItemInput(
    WorkItemSpec spec, int instance, int restartsUsed, List<WorkItemTransition> log) {

  public WorkItemInput {
    log = log == null ? List.of() : List.copyOf(log);
  }

  /** The input of a freshly scheduled item. */
  public static WorkItemInput first(WorkItemSpec spec) {
    return new WorkItemInput(spec, 1, 0, List.of());
  }
}
