package io.jimflow.worker;

import io.jimflow.common.SearchAttributeSetup;
import java.util.List;

/** The worker cannot run: its namespace lacks jimflow's search attributes, or cannot be asked. */
public class SearchAttributesNotReadyException extends RuntimeException {

  private final List<String> fixes;

  SearchAttributesNotReadyException(SearchAttributeSetup.Report report, String connectionArgs) {
    super(String.join("\n", report.problems()));
    this.fixes = report.fixes(connectionArgs);
  }

  SearchAttributesNotReadyException(String message, Throwable cause) {
    super(message, cause);
    this.fixes = List.of("Check TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE and that the server runs.");
  }

  /** The commands (or steps) that make the worker start. */
  public List<String> fixes() {
    return fixes;
  }
}
