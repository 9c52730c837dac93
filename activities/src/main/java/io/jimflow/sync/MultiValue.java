package io.jimflow.sync;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Several values of one attribute (a directory's {@code mail} aliases, a group's {@code member}s)
 * as the one text the metaverse, the sync rules and the connector space carry: the distinct values
 * sorted and joined with line breaks. Sorting makes equal sets equal texts, so comparisons, content
 * hashes, confirmation and drift detection need no special case; a single value stays as it is.
 */
public final class MultiValue {

  public static final String SEPARATOR = "\n";

  private MultiValue() {}

  /** The text of these values; empty when there are none. */
  public static String join(Collection<String> values) {
    return String.join(
        SEPARATOR, values.stream().filter(v -> !v.isEmpty()).distinct().sorted().toList());
  }

  /**
   * A text as comparisons and joins take it: several values in their sorted order (the order a
   * source sent them in is no difference), a single value as it is; null for null or empty.
   */
  public static String normalised(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    return text.contains(SEPARATOR) ? join(split(text)) : text;
  }

  /** The values of a text; none for null or empty. */
  public static List<String> split(String text) {
    if (text == null || text.isEmpty()) {
      return List.of();
    }
    return Arrays.stream(text.split(SEPARATOR)).filter(v -> !v.isEmpty()).toList();
  }
}
