package io.jimflow.worker;

import io.jimflow.encryption.PayloadEncryption;
import io.jimflow.encryption.PayloadKeysException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports unusable payload keys as a short message, not a trace. */
class PayloadKeysFailureAnalyzer extends AbstractFailureAnalyzer<PayloadKeysException> {

  @Override
  protected FailureAnalysis analyze(Throwable root, PayloadKeysException cause) {
    return new FailureAnalysis(
        "The payload encryption keys cannot be used: " + cause.getMessage(),
        "Fix "
            + PayloadEncryption.KEYS_FILE_VARIABLE
            + " (or "
            + PayloadEncryption.KEYS_VARIABLE
            + "): one key a line, <key id>:<base64 of 32 random bytes>, the current key first;"
            + " see docs/security.md.",
        cause);
  }
}
