package io.jimflow.metrics;

import io.jimflow.store.ApprovalWaits;
import io.jimflow.store.ExecutionRecords;
import io.jimflow.store.PendingExports;
import io.jimflow.store.Store;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sets the gauges that the store knows from before this worker started: when each schedule last
 * succeeded, how many exports each connected system has pending, and which executions wait for an
 * approval since when. Runs and executions keep them current afterwards; reading them again now and
 * then corrects what another worker changed.
 */
public final class StoreGauges {

  private final Store store;
  private final Map<String, String> systems;
  private final JimflowMetrics metrics;
  private final ExecutionRecords executions;
  private final PendingExports pendingExports;
  private final ApprovalWaits approvalWaits;

  /**
   * @param systems the configured connected systems: their names by their ids
   */
  public StoreGauges(
      Store store, Map<String, String> systems, JimflowMetrics metrics, Clock clock) {
    this.store = store;
    this.systems = Map.copyOf(systems);
    this.metrics = metrics;
    this.executions = new ExecutionRecords(clock);
    this.pendingExports = new PendingExports(clock);
    this.approvalWaits = new ApprovalWaits(clock);
  }

  /** Reads the gauges' values from the store (a store failure propagates). */
  public void refresh() {
    Map<String, Instant> lastCompleted = store.inTransaction(executions::lastCompleted);
    lastCompleted.forEach(metrics::lastSuccess);
    refreshPendingExports();
    refreshApprovals();
  }

  /**
   * Reads the executions that wait for an approval and since when, from their run records: the
   * store is where the hold and the decided run both write, in the transaction that changes the
   * run, and one grouped query counts every schedule (a store failure propagates).
   */
  public void refreshApprovals() {
    metrics.approvalsWaiting(store.inTransaction(approvalWaits::bySchedule));
  }

  /** Reads the exports every connected system has pending (a store failure propagates). */
  public void refreshPendingExports() {
    Map<String, Long> pending =
        store.inTransaction(
            c -> {
              Map<String, Long> counts = new LinkedHashMap<>();
              for (Map.Entry<String, String> system : systems.entrySet()) {
                counts.put(system.getValue(), pendingExports.countPending(c, system.getKey()));
              }
              return counts;
            });
    pending.forEach(metrics::pendingExports);
  }
}
