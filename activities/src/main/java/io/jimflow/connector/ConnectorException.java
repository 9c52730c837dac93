package io.jimflow.connector;

/**
 * A connected system cannot be read or written at all (not one bad object: the whole step fails).
 */
public class ConnectorException extends RuntimeException {
  public ConnectorException(String message) {
    super(message);
  }

  public ConnectorException(String message, Throwable cause) {
    super(message, cause);
  }
}
