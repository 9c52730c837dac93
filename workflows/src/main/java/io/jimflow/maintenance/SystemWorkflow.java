package io.jimflow.maintenance;

import io.jimflow.resource.ResourceLocks;
import io.jimflow.resource.ResourceNotice;
import io.temporal.workflow.Workflow;
import java.util.Map;

/**
 * What the connected-system workflows (clear and delete) share: the resource locks they wait on and
 * the {@link SystemTask} frame around their work. A subclass passes its kind, its operation and
 * whether it touches the metaverse, and does the work.
 */
abstract class SystemWorkflow {

  /** The long-running maintenance activities the work calls. */
  protected final MaintenanceActivities activities =
      Workflow.newActivityStub(MaintenanceActivities.class, MaintenanceOptions.LONG);

  private final ResourceLocks locks = new ResourceLocks();

  private final MaintenanceKind kind;
  private final SystemOperation operation;
  private final boolean touchesMetaverse;

  /**
   * @param kind the task's kind, as written in its run record
   * @param operation what the system is marked as doing while the task holds it
   * @param touchesMetaverse whether the work changes the metaverse too, so that the task also holds
   *     it
   */
  SystemWorkflow(MaintenanceKind kind, SystemOperation operation, boolean touchesMetaverse) {
    this.kind = kind;
    this.operation = operation;
    this.touchesMetaverse = touchesMetaverse;
  }

  /** Does the work for {@code input} under run record {@code runRecordId}, adding to totals. */
  abstract void work(SystemMaintenanceInput input, String runRecordId, Map<String, Long> totals);

  public void resourceNotice(ResourceNotice notice) {
    locks.onNotice(notice);
  }

  public SystemMaintenanceResult run(SystemMaintenanceInput input) {
    return new SystemTask()
        .run(
            kind,
            operation,
            input,
            locks,
            touchesMetaverse,
            (runRecordId, totals) -> work(input, runRecordId, totals));
  }
}
