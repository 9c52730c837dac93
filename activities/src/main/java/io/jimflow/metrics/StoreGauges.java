package io.jimflow.metrics;

import io.jimflow.store.ExecutionRecords;
import io.jimflow.store.PendingExports;
import io.jimflow.store.Store;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sets the gauges that the store knows from before this worker started: when each schedule last
 * succeeded and how many exports each connected system has pending. Runs and executions keep them
 * current afterwards; reading them again now and then corrects what another worker changed.
 */
public final class StoreGauges {

  private final Store store;
  private final Map<String, String> systems;
  private final JimflowMetrics metrics;
  private final ExecutionRecords executions;
  private final PendingExports pendingExports;

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
  }

  /** Reads the gauges' values from the store (a store failure propagates). */
  public void refresh() {
    Map<String, Instant> lastCompleted = store.inTransaction(executions::lastCompleted);
    lastCompleted.forEach(metrics::lastSuccess);
    refreshPendingExports();
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
