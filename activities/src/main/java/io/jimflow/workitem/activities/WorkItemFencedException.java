package io.jimflow.workitem.activities;

/**
 * A write of a work item handler refused because its attempt no longer counts: the item was Killed
 * (its grace period ran out), the server gave the attempt up, or WorkItemFinished overran its
 * limit. Nothing was written; the handler must stop.
 */
public final class WorkItemFencedException extends RuntimeException {

  public WorkItemFencedException(String message) {
    super(message);
  }

  public WorkItemFencedException(String message, Throwable cause) {
    super(message, cause);
  }
}
