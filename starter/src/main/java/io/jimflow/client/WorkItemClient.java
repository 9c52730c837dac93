package io.jimflow.client;

import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.common.TaskQueues;
import io.jimflow.workitem.CancelRequest;
import io.jimflow.workitem.StartTimeChange;
import io.jimflow.workitem.WorkItemInput;
import io.jimflow.workitem.WorkItemLifecycle;
import io.jimflow.workitem.WorkItemSpec;
import io.jimflow.workitem.WorkItemState;
import io.jimflow.workitem.WorkItemView;
import io.jimflow.workitem.WorkItemWorkflow;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WithStartWorkflowOperation;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.failure.ApplicationFailure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The work manager's API for programs: schedule, re-schedule, move, cancel, show and list work
 * items.
 *
 * <p>Every item is addressed by its guid (the workflow id). Requests the item's lifecycle does not
 * allow (re-scheduling a started item, moving a running one, cancelling an ended one) throw {@link
 * WorkItemRefusedException} with the reason.
 */
public final class WorkItemClient {

  private final WorkflowClient client;

  public WorkItemClient(WorkflowClient client) {
    this.client = client;
  }

  /**
   * Schedules an item, or atomically replaces the not-yet-started item with the same guid. An item
   * whose previous life has ended is scheduled afresh.
   *
   * @throws IllegalArgumentException naming every wrong field of {@code spec}
   * @throws WorkItemRefusedException when the item has already started
   */
  public WorkItemView schedule(WorkItemSpec spec) {
    WorkItemSpec full = spec.withDefaults();
    List<String> problems = full.problems();
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "work item " + full.guid() + ": " + String.join("; ", problems));
    }
    WorkItemWorkflow stub =
        client.newWorkflowStub(
            WorkItemWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(full.guid())
                .setTaskQueue(TaskQueues.WORK_ITEMS)
                // A running item takes the update (replace or refuse); otherwise a new item starts.
                .setWorkflowIdConflictPolicy(
                    WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING)
                .setStaticSummary("work item " + full.kind() + " " + full.guid())
                .setTypedSearchAttributes(
                    io.temporal.common.SearchAttributes.newBuilder()
                        .set(JimflowSearchAttributes.WORK_ITEM_KIND, full.kind())
                        .set(
                            JimflowSearchAttributes.WORK_ITEM_STATE,
                            WorkItemLifecycle.initialState(full.startTime() != null).name())
                        .build())
                .build());
    try {
      return WorkflowClient.executeUpdateWithStart(
          stub::schedule,
          full,
          UpdateOptions.<WorkItemView>newBuilder()
              .setWaitForStage(WorkflowUpdateStage.COMPLETED)
              .build(),
          new WithStartWorkflowOperation<>(stub::run, WorkItemInput.first(full)));
    } catch (WorkflowUpdateException e) {
      throw refused(e);
    }
  }

  /**
   * Moves the planned start of a not-yet-started item in place; wakes a suspended one.
   *
   * @throws NotFoundException when no item has the guid
   */
  public WorkItemView changeStartTime(String guid, Instant startTime) {
    return onItem(guid, () -> stub(guid).changeStartTime(new StartTimeChange(startTime)));
  }

  /**
   * Cancels an item: before its start it is removed, while running it is asked to end.
   *
   * @throws NotFoundException when no item has the guid
   */
  public WorkItemView cancel(String guid, String reason) {
    return onItem(guid, () -> stub(guid).cancel(new CancelRequest(reason)));
  }

  /**
   * The item's state, category, instance count and full transition log. An ended item is read from
   * its result, so no worker needs to be up for it.
   *
   * @throws NotFoundException when no item has the guid
   */
  public WorkItemView show(String guid) {
    return onItem(
        guid,
        () -> {
          WorkflowExecutionStatus status =
              client.newUntypedWorkflowStub(guid).describe().getWorkflowExecutionInfo().getStatus();
          if (status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED) {
            return client.newUntypedWorkflowStub(guid).getResult(WorkItemView.class);
          }
          return stub(guid).show();
        });
  }

  /** Items in {@code state} and/or of {@code kind} (either may be null), newest first. */
  public List<WorkItemSummary> list(WorkItemState state, String kind) {
    List<WorkItemSummary> items = new ArrayList<>();
    client
        .listExecutions(listQuery(state, kind))
        .forEach(
            (WorkflowExecutionMetadata m) ->
                items.add(
                    new WorkItemSummary(
                        m.getExecution().getWorkflowId(),
                        m.getTypedSearchAttributes().get(JimflowSearchAttributes.WORK_ITEM_KIND),
                        m.getTypedSearchAttributes().get(JimflowSearchAttributes.WORK_ITEM_STATE),
                        statusName(m.getStatus()),
                        m.getExecution().getRunId(),
                        m.getStartTime())));
    items.sort(
        java.util.Comparator.comparing(
                WorkItemSummary::runStartedAt,
                java.util.Comparator.nullsLast(java.util.Comparator.naturalOrder()))
            .reversed());
    return items;
  }

  /** The visibility query behind {@link #list}: the current run of every matching work item. */
  public static String listQuery(WorkItemState state, String kind) {
    StringBuilder q =
        new StringBuilder("WorkflowType = '")
            .append(WorkItemWorkflow.TYPE)
            .append("' AND ExecutionStatus != 'ContinuedAsNew'");
    if (state != null) {
      q.append(" AND ")
          .append(JimflowSearchAttributes.WORK_ITEM_STATE.getName())
          .append(" = '")
          .append(state.name())
          .append("'");
    }
    if (kind != null) {
      if (!kind.matches("[A-Za-z0-9._-]+")) {
        throw new IllegalArgumentException(
            "kind '" + kind + "': only letters, digits, '.', '_' and '-' are allowed");
      }
      q.append(" AND ")
          .append(JimflowSearchAttributes.WORK_ITEM_KIND.getName())
          .append(" = '")
          .append(kind)
          .append("'");
    }
    // No ORDER BY: the dev server's SQL visibility does not support it; list() sorts itself.
    return q.toString();
  }

  private static String statusName(WorkflowExecutionStatus status) {
    String n = status.name().replace("WORKFLOW_EXECUTION_STATUS_", "").toLowerCase(Locale.ROOT);
    return n.isEmpty() ? n : Character.toUpperCase(n.charAt(0)) + n.substring(1);
  }

  private WorkItemWorkflow stub(String guid) {
    return client.newWorkflowStub(WorkItemWorkflow.class, guid);
  }

  /** Calls the item, turning a refusal or an unknown guid into this API's exceptions. */
  private static WorkItemView onItem(String guid, Supplier<WorkItemView> call) {
    try {
      return call.get();
    } catch (WorkflowUpdateException e) {
      throw refused(e);
    } catch (WorkflowNotFoundException e) {
      throw new NotFoundException("no work item with guid " + guid);
    }
  }

  private static WorkItemRefusedException refused(WorkflowUpdateException e) {
    Throwable cause = e.getCause();
    String message =
        cause instanceof ApplicationFailure af ? af.getOriginalMessage() : String.valueOf(cause);
    return new WorkItemRefusedException(message, e);
  }
}
