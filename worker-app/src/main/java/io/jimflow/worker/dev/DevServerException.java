package io.jimflow.worker.dev;

/** The dev server could not be found, installed or started; the message says what to do. */
public class DevServerException extends RuntimeException {
  public DevServerException(String message) {
    super(message);
  }

  public DevServerException(String message, Throwable cause) {
    super(message, cause);
  }
}
