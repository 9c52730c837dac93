package io.jimflow.maintenance;

/** What a maintenance run record was written for. */
public enum MaintenanceKind {
  Housekeeping,
  HistoryRetention,
  ClearConnectedSystem,
  DeleteConnectedSystem
}
