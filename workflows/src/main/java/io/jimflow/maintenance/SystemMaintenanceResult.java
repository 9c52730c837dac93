package io.jimflow.maintenance;

import java.util.Map;

/** What a maintenance task on a connected system did: its run record and totals. */
public record SystemMaintenanceResult(
    String runRecordId, String connectedSystem, Map<String, Long> totals) {

  public SystemMaintenanceResult {
    totals = Map.copyOf(totals);
  }
}
