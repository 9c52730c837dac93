package io.jimflow.client;

/**
 * Temporal could not be reached (or the namespace does not exist); the message says how to fix it.
 */
public class JimflowConnectionException extends RuntimeException {
  public JimflowConnectionException(String message, Throwable cause) {
    super(message, cause);
  }
}
