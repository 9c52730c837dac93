package io.jimflow.store;

/** What a run did to one object, as its run item says. */
public enum ChangeType {
  Added(Total.ADDED),
  Updated(Total.UPDATED),
  Deleted(Total.DELETED),
  Projected(Total.PROJECTED),
  Joined(Total.JOINED),
  AttributeFlow(Total.ATTRIBUTE_FLOWS),
  Disconnected(Total.DISCONNECTED),
  DisconnectedOutOfScope(Total.DISCONNECTED_OUT_OF_SCOPE),
  DriftCorrection(Total.DRIFT_CORRECTIONS),
  Provisioned(Total.PROVISIONED),
  Exported(Total.EXPORTED),
  Deprovisioned(Total.DEPROVISIONED),
  PendingExportConfirmed(Total.CONFIRMED),
  NoChange(null);

  private final Total total;

  ChangeType(Total total) {
    this.total = total;
  }

  /** The run record total this change counts towards, or null (NoChange). */
  public Total total() {
    return total;
  }
}
