package io.jimflow.connector;

import java.util.Map;

/**
 * One object read from a connected system, or why it could not be read.
 *
 * @param position the object's 1-based position in the import; a resumed import skips positions up
 *     to its checkpoint
 * @param reference where a person finds it: the anchor, or the file and line of a bad row
 * @param attributes null when {@code errorType} is set
 * @param location where the row is, e.g. "hr.csv line 7"
 * @param deleted the source reports the object deleted (a delta import); only the anchor is set
 */
public record ImportRow(
    long position,
    String reference,
    String anchor,
    Map<String, String> attributes,
    String errorType,
    String errorMessage,
    String location,
    boolean deleted) {

  public ImportRow(
      long position,
      String reference,
      String anchor,
      Map<String, String> attributes,
      String errorType,
      String errorMessage,
      String location) {
    this(position, reference, anchor, attributes, errorType, errorMessage, location, false);
  }

  /** An object a delta import reports deleted. */
  public static ImportRow deletion(long position, String reference, String anchor) {
    return new ImportRow(position, reference, anchor, null, null, null, reference, true);
  }

  public boolean isError() {
    return errorType != null;
  }
}
