package io.jimflow.encryption;

import io.temporal.payload.codec.PayloadCodecException;

/**
 * An encrypted payload cannot be decrypted: its key is not in the keyring, or it was altered. In a
 * worker this fails the workflow task, which Temporal retries, so a worker that has the key can
 * still take the execution over.
 */
public class PayloadDecryptionException extends PayloadCodecException {

  public PayloadDecryptionException(String message) {
    super(message);
  }
}
