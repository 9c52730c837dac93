package io.jimflow.store;

/** Pending until an export writes it, Exported until a confirming import finds it applied. */
public enum ExportStatus {
  Pending,
  Exported,
  Confirmed
}
