package io.jimflow.store;

/** A store operation failed; wraps the driver's {@link java.sql.SQLException}. */
public class StoreException extends RuntimeException {
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
