package io.jimflow.workitem.activities;

import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.workitem.WorkItemState;
import io.jimflow.workitem.WorkItemWorkflow;
import io.temporal.client.WorkflowClient;
import java.util.EnumMap;
import java.util.Map;

/**
 * How many open work items are in each state, as Temporal's visibility counts them (the {@code
 * JimflowWorkItemState} search attribute of running work item workflows): one count per state, so
 * the cost does not grow with the number of items.
 */
public final class WorkItemCensus {

  private final WorkflowClient client;

  public WorkItemCensus(WorkflowClient client) {
    this.client = client;
  }

  /** Every state with the number of open work items in it (0 for most). */
  public Map<WorkItemState, Long> count() {
    Map<WorkItemState, Long> counts = new EnumMap<>(WorkItemState.class);
    for (WorkItemState state : WorkItemState.values()) {
      counts.put(
          state,
          client
              .countWorkflows(
                  "WorkflowType = '"
                      + WorkItemWorkflow.TYPE
                      + "' AND ExecutionStatus = 'Running' AND "
                      + JimflowSearchAttributes.WORK_ITEM_STATE.getName()
                      + " = '"
                      + state.name()
                      + "'")
              .getCount());
    }
    return counts;
  }
}
