package io.jimflow.dataplane;

import io.jimflow.dataplane.config.SafetyThresholds;
import io.jimflow.dataplane.config.Threshold;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a run would cross one of its system's thresholds, and how to say so: the decision alone,
 * on counts the run read from the store.
 */
final class ThresholdDecision {

  private ThresholdDecision() {}

  /** One crossed threshold: what the run would do, to how many of how many objects. */
  record Crossing(
      String action, long changes, long total, Threshold threshold, List<String> sample) {

    String describe(String system) {
      String of = total > 0 ? " of " + total : "";
      String share = total > 0 ? " (" + Math.round(100.0 * changes / total) + "%)" : "";
      String text =
          action
              + " "
              + changes
              + of
              + " objects of "
              + system
              + share
              + ", above the threshold of "
              + threshold.describe();
      if (!sample.isEmpty()) {
        text +=
            "; e.g. "
                + String.join(", ", sample)
                + (changes > sample.size() ? " and " + (changes - sample.size()) + " more" : "");
      }
      return text;
    }
  }

  /**
   * A full import that would mark {@code absent} of the system's {@code total} objects absent: held
   * above its threshold, and always when the source holds none of them (an empty or truncated file,
   * a wrong search base).
   */
  static Optional<Crossing> absent(
      long absent, long total, SafetyThresholds thresholds, List<String> sample) {
    Threshold threshold = thresholds.importAbsent();
    boolean crossed = absent > 0 && (absent >= total || threshold.crossedBy(absent, total));
    return crossed
        ? Optional.of(new Crossing("would mark absent", absent, total, threshold, sample))
        : Optional.empty();
  }

  /** An export that would send these deletions and updates to a system of {@code total} objects. */
  static List<Crossing> export(
      long deletions,
      long updates,
      long total,
      SafetyThresholds thresholds,
      List<String> deletionSample,
      List<String> updateSample) {
    List<Crossing> crossings = new ArrayList<>();
    if (thresholds.exportDeletions().crossedBy(deletions, total)) {
      crossings.add(
          new Crossing(
              "would delete", deletions, total, thresholds.exportDeletions(), deletionSample));
    }
    if (thresholds.exportUpdates().crossedBy(updates, total)) {
      crossings.add(
          new Crossing("would update", updates, total, thresholds.exportUpdates(), updateSample));
    }
    return crossings;
  }
}
