package io.jimflow.maintenance.activities;

import io.jimflow.maintenance.MaintenanceActivities;
import io.jimflow.maintenance.SystemOperation;
import io.jimflow.store.Store;
import io.jimflow.store.SystemHolds;
import io.jimflow.store.SystemHolds.Hold;
import io.temporal.failure.ApplicationFailure;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Maintenance's holds on connected systems (being cleared or deleted), each call in its own
 * transaction; refusals are non-retryable failures of type {@link
 * MaintenanceActivities#SYSTEM_BUSY}. A run profile checks the hold itself, in the transaction that
 * opens its run record (see {@link SystemHolds}).
 */
public final class SystemOperations {

  private final Store store;
  private final SystemHolds holds;

  public SystemOperations(Store store, Clock clock) {
    this.store = store;
    this.holds = new SystemHolds(clock);
  }

  /**
   * Takes the hold for a workflow; taking it again from the same workflow (a retry) is a no-op.
   *
   * @throws ApplicationFailure non-retryable ({@link MaintenanceActivities#SYSTEM_BUSY}) while
   *     another workflow holds it or one of its run profiles is running
   */
  public void hold(String connectedSystem, SystemOperation operation, String workflowId) {
    Optional<String> refused =
        store.inTransaction(c -> holds.hold(c, connectedSystem, operation, workflowId));
    if (refused.isPresent()) {
      throw MaintenanceActivities.systemBusy(refused.get());
    }
  }

  /** Releases the hold if this workflow has it: the system is Active again. */
  public boolean release(String connectedSystem, String workflowId) {
    return store.inTransaction(c -> holds.release(c, connectedSystem, workflowId));
  }

  public SystemOperation status(String connectedSystem) {
    return store.inTransaction(c -> holds.status(c, connectedSystem));
  }

  /** Every hold there is. */
  public List<Hold> all() {
    return store.inTransaction(holds::all);
  }
}
