package io.jimflow.workitem;

import io.jimflow.common.JimflowSearchAttributes;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * How many open work items are in each state, as Temporal's visibility knows them (the {@code
 * JimflowWorkItemState} search attribute of running work item workflows).
 */
public final class WorkItemCensus {

  /** Counts stop here: a census is a gauge for operators, not an inventory. */
  static final int MAXIMUM_COUNTED = 100_000;

  private static final String QUERY =
      "WorkflowType = '" + WorkItemWorkflow.TYPE + "' AND ExecutionStatus = 'Running'";

  private final WorkflowClient client;

  public WorkItemCensus(WorkflowClient client) {
    this.client = client;
  }

  /** Every state with the number of open work items in it (0 for most). */
  public Map<WorkItemState, Long> count() {
    Map<WorkItemState, Long> counts = new EnumMap<>(WorkItemState.class);
    for (WorkItemState state : WorkItemState.values()) {
      counts.put(state, 0L);
    }
    client
        .listExecutions(QUERY)
        .limit(MAXIMUM_COUNTED)
        .map(WorkItemCensus::state)
        .filter(Objects::nonNull)
        .forEach(state -> counts.merge(state, 1L, Long::sum));
    return counts;
  }

  private static WorkItemState state(WorkflowExecutionMetadata workflow) {
    String state = workflow.getTypedSearchAttributes().get(JimflowSearchAttributes.WORK_ITEM_STATE);
    if (state != null) {
      for (WorkItemState known : WorkItemState.values()) {
        if (known.name().equals(state)) {
          return known;
        }
      }
    }
    // Not published yet (the item has just started): counted once it is.
    return null;
  }
}
