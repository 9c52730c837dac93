package io.jimflow.config.tree;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** Finds the known word a user most likely meant, for "did you mean …?" hints. */
public final class Suggestions {

  private Suggestions() {}

  /**
   * The candidate closest to {@code typed} by edit distance (case-insensitive), if it is close
   * enough to be a plausible typo: at most a third of the longer word's length, and at least 1 edit
   * allowed.
   */
  public static Optional<String> closest(String typed, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = distance(typed.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    int allowed = Math.max(1, Math.max(typed.length(), best.length()) / 3);
    return bestDistance <= allowed ? Optional.of(best) : Optional.empty();
  }

  /** Damerau–Levenshtein distance (optimal string alignment), so a swapped pair counts once. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
