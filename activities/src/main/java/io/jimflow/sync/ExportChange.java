package io.jimflow.sync;

/** What a pending export asks of the target system. */
public enum ExportChange {
  Create,
  Update,
  Delete
}
