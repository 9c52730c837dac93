package io.jimflow.maintenance;

/** The kinds of history that history retention deletes, each with its own retention period. */
public enum HistoryKind {
  /** Changes of connector space objects ({@code cso_change}). */
  CsoChanges("csoChangesDeleted"),
  /** Changes of metaverse objects ({@code mvo_change}). */
  MvoChanges("mvoChangesDeleted"),
  /** Ended run records with their run items, and ended maintenance run records. */
  RunRecords("runRecordsDeleted");

  private final String totalName;

  HistoryKind(String totalName) {
    this.totalName = totalName;
  }

  /** The name of this kind's count in a retention run record's totals. */
  public String totalName() {
    return totalName;
  }
}
