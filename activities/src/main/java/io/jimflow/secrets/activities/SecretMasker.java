package io.jimflow.secrets.activities;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Replaces known secret values with {@value #MASK} in text that is about to leave the worker.
 *
 * <p>Values shorter than {@value #SHORTEST_MASKED} characters are not masked: masking them would
 * garble ordinary output while hiding nothing worth hiding. Longer values are replaced first, so
 * that a secret containing another is masked as a whole.
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

  /** A masker for these secret values. */
  public static SecretMasker of(Collection<String> values) {
    return new SecretMasker(
        values.stream()
            .filter(Objects::nonNull)
            .filter(v -> v.length() >= SHORTEST_MASKED)
            .distinct()
            .sorted(Comparator.comparingInt(String::length).reversed())
            .toList());
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
