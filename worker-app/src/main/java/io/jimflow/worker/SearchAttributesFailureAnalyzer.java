package io.jimflow.worker;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a namespace without jimflow's search attributes as a short message, not a trace. */
class SearchAttributesFailureAnalyzer
    extends AbstractFailureAnalyzer<SearchAttributesNotReadyException> {

  @Override
  protected FailureAnalysis analyze(Throwable root, SearchAttributesNotReadyException cause) {
    return new FailureAnalysis(
        "jimflow's search attributes are not ready:\n" + cause.getMessage(),
        String.join("\n", cause.fixes()),
        cause);
  }
}
