package io.jimflow.client;

/**
 * The work manager refused a request for an item (e.g. re-scheduling one that has already started).
 */
public class WorkItemRefusedException extends RuntimeException {
  public WorkItemRefusedException(String message, Throwable cause) {
    super(message, cause);
  }
}
