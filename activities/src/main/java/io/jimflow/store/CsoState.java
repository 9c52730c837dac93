package io.jimflow.store;

/** The life of a connector space object. */
public enum CsoState {
  /** Imported from its system. */
  Normal,
  /** Provisioned by a synchronisation, awaiting its first export and confirming import. */
  PendingProvisioning,
  /** Absent from a full import; the next synchronisation disconnects and removes it. */
  Obsolete
}
