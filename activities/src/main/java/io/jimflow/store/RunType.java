package io.jimflow.store;

/** What a run profile does. */
public enum RunType {
  FullImport,
  DeltaImport,
  FullSynchronisation,
  DeltaSynchronisation,
  Export;

  public boolean isImport() {
    return this == FullImport || this == DeltaImport;
  }

  public boolean isSynchronisation() {
    return this == FullSynchronisation || this == DeltaSynchronisation;
  }
}
