package io.jimflow.worker.codec;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports an exposed codec server as one line, not a trace. */
class CodecServerFailureAnalyzer extends AbstractFailureAnalyzer<CodecServerExposedException> {

  @Override
  protected FailureAnalysis analyze(Throwable root, CodecServerExposedException cause) {
    return new FailureAnalysis(
        "The worker refuses to start: " + cause.getMessage() + ".",
        "See docs/security.md, \"The codec server\".",
        cause);
  }
}
