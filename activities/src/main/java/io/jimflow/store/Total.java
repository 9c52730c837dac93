package io.jimflow.store;

/** The totals of a run record, with their column and their name in step outcome statistics. */
public enum Total {
  ADDED("added", "total_added"),
  UPDATED("updated", "total_updated"),
  DELETED("deleted", "total_deleted"),
  PROJECTED("projected", "total_projected"),
  JOINED("joined", "total_joined"),
  ATTRIBUTE_FLOWS("attributeFlows", "total_attribute_flows"),
  DISCONNECTED("disconnected", "total_disconnected"),
  DISCONNECTED_OUT_OF_SCOPE("disconnectedOutOfScope", "total_disconnected_out_of_scope"),
  DRIFT_CORRECTIONS("driftCorrections", "total_drift_corrections"),
  PROVISIONED("provisioned", "total_provisioned"),
  EXPORTED("exported", "total_exported"),
  DEPROVISIONED("deprovisioned", "total_deprovisioned"),
  PENDING_EXPORTS("pendingExports", "total_pending_exports"),
  CONFIRMED("confirmed", "total_confirmed"),
  ERRORS("errors", "total_errors");

  private final String statName;
  private final String column;

  Total(String statName, String column) {
    this.statName = statName;
    this.column = column;
  }

  public String statName() {
    return statName;
  }

  String column() {
    return column;
  }
}
