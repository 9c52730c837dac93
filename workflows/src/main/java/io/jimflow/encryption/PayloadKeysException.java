package io.jimflow.encryption;

/** The payload keys setting cannot be used; the message says where and why, never a key. */
public class PayloadKeysException extends IllegalArgumentException {

  public PayloadKeysException(String message) {
    super(message);
  }
}
