package io.jimflow.maintenance;

/**
 * What maintenance is doing to a connected system. While one is under way, run profiles of that
 * system refuse to run; Active means none is.
 */
public enum SystemOperation {
  Active,
  Clearing,
  Deleting
}
