package io.jimflow.store;

/** What a pending export asks of the target system. */
public enum ExportChange {
  Create,
  Update,
  Delete
}
