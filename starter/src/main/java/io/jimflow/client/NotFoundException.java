package io.jimflow.client;

/** No schedule or execution has the given id. */
public class NotFoundException extends RuntimeException {
  public NotFoundException(String message) {
    super(message);
  }
}
