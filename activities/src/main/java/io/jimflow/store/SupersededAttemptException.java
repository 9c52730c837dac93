package io.jimflow.store;

/**
 * An attempt of a run tried to save progress on a run record that a later attempt took over (or
 * that ended): its page is rolled back and the attempt stops, leaving the record to its owner.
 */
public class SupersededAttemptException extends StoreException {
  public SupersededAttemptException(String message) {
    super(message, null);
  }
}
