package io.jimflow.workitem;

/** The categories of seed 003's state table; states of one category behave alike. */
public enum WorkItemCategory {
  /**
   * Stored and owned by the work manager, waiting for its start time, a predecessor or a wake-up.
   */
  WAITING_FOR_START_CONDITION("waiting for start condition"),
  /** Ready, waiting for a free execution slot, or being removed before it ever started. */
  WAITING_FOR_EXECUTION("waiting for execution"),
  /** Being executed; owned by the item itself. */
  RUNNING("running"),
  /** The instance has ended; final unless a restart state follows. */
  ENDED("ended"),
  /** The instance has ended and a new instance of the same item was planned. */
  RESTART("restart");

  private final String label;

  WorkItemCategory(String label) {
    this.label = label;
  }

  /** The category's name as the state table spells it. */
  public String label() {
    return label;
  }
}
