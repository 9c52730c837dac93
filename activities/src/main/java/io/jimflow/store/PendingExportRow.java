package io.jimflow.store;

import io.jimflow.sync.ExportChange;
import java.util.Map;

/**
 * A change waiting to be exported to (or confirmed in) a target system.
 *
 * @param attributes the values the target should end up with (for Create: all flowed values)
 * @param anchor the target CSO's anchor
 */
public record PendingExportRow(
    long id,
    String connectedSystem,
    long csoId,
    String anchor,
    String mvoId,
    ExportChange change,
    Map<String, String> attributes,
    ExportStatus status,
    boolean driftCorrection) {

  public PendingExportRow {
    attributes = Map.copyOf(attributes);
  }
}
