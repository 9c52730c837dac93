package io.jimflow.secrets.activities;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Replaces known secret values with {@value #MASK} in text that is about to leave the worker.
 *
 * <p>Values shorter than {@value #SHORTEST_MASKED} characters are not masked: masking them would
 * garble ordinary output while hiding nothing worth hiding. Longer values are replaced first, so
 * that a secret containing another is masked as a whole. A value of several lines is also masked
 * line by line (output is read a line at a time).
 */
public final class SecretMasker {

  public static final String MASK = "***";
  public static final int SHORTEST_MASKED = 4;

  /** Masks nothing. */
  public static final SecretMasker NONE = new SecretMasker(List.of());

  private final List<String> values;

  private SecretMasker(List<String> values) {
    this.values = values;
  }

  /** A masker for these secret values, and for each line of those of several lines. */
  public static SecretMasker of(Collection<String> values) {
    return new SecretMasker(
        values.stream()
            .filter(Objects::nonNull)
            .flatMap(v -> Stream.concat(Stream.of(v), v.lines()))
            .filter(v -> v.length() >= SHORTEST_MASKED)
            .distinct()
            .sorted(Comparator.comparingInt(String::length).reversed())
            .toList());
  }

  /** This masker and {@code more} values. */
  public SecretMasker with(Collection<String> more) {
    List<String> all = new ArrayList<>(values);
    all.addAll(more);
    return of(all);
  }

  /**
   * Masks {@code text} that was cut from a longer one just before its start: besides whole values,
   * a beginning that is the end of a known value (the rest of a secret the cut went through).
   */
  public String maskAfterCut(String text) {
    String masked = mask(text);
    if (masked == null) {
      return null;
    }
    for (String value : values) {
      for (int keep = Math.min(value.length() - 1, masked.length()); keep > 0; keep--) {
        if (masked.startsWith(value.substring(value.length() - keep))) {
          return MASK + masked.substring(keep);
        }
      }
    }
    return masked;
  }

  /** {@code text} with every known secret value replaced by {@value #MASK}; null stays null. */
  public String mask(String text) {
    if (text == null || values.isEmpty()) {
      return text;
    }
    String masked = text;
    for (String value : values) {
      masked = masked.replace(value, MASK);
    }
    return masked;
  }
}
