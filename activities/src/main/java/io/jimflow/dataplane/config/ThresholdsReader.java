package io.jimflow.dataplane.config;

import io.jimflow.config.tree.ConfigNode;
import io.jimflow.config.tree.Problems;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * Reads a {@code thresholds} mapping (at the top of the file, or of one connected system): each of
 * {@code exportDeletions}, {@code exportUpdates} and {@code importAbsent} a mapping of {@code
 * count} (a whole number) and {@code share} ({@code 10%} or {@code 0.1}); what it leaves out comes
 * from the defaults it refines. {@code approvalTimeout} and {@code samples} (how many objects of
 * each change a held run and a preview show) are read here too.
 */
final class ThresholdsReader extends NodeReading {

  static final long MAX_COUNT = 1_000_000_000L;

  ThresholdsReader(Problems problems) {
    super(problems);
  }

  SafetyThresholds thresholds(ConfigNode node, String label, SafetyThresholds defaults) {
    if (node == null) {
      return defaults;
    }
    Map<String, ConfigNode> map =
        mapping(
            node,
            label + " thresholds",
            "exportDeletions",
            "exportUpdates",
            "importAbsent",
            "approvalTimeout",
            "samples");
    return new SafetyThresholds(
        threshold(
            map.get("exportDeletions"), label + " exportDeletions", defaults.exportDeletions()),
        threshold(map.get("exportUpdates"), label + " exportUpdates", defaults.exportUpdates()),
        threshold(map.get("importAbsent"), label + " importAbsent", defaults.importAbsent()),
        timeout(map.get("approvalTimeout"), label, defaults.approvalTimeout()),
        wholeNumber(map, "samples", label, defaults.samples(), 0, SafetyThresholds.MAX_SAMPLES));
  }

  private Duration timeout(ConfigNode node, String label, Duration defaults) {
    if (node == null) {
      return defaults;
    }
    String text = String.valueOf(scalar(node, label + " approvalTimeout")).trim();
    try {
      Duration timeout = Duration.parse(text);
      if (timeout.compareTo(SafetyThresholds.MIN_APPROVAL_TIMEOUT) < 0
          || timeout.compareTo(SafetyThresholds.MAX_APPROVAL_TIMEOUT) > 0) {
        problem(node, label + ": approvalTimeout must be between PT1M and P30D, not " + text);
        return defaults;
      }
      return timeout;
    } catch (DateTimeParseException e) {
      problem(
          node,
          label + ": approvalTimeout '" + text + "' is not a duration (ISO-8601, e.g. PT24H)");
      return defaults;
    }
  }

  private Threshold threshold(ConfigNode node, String label, Threshold defaults) {
    if (node == null) {
      return defaults;
    }
    Map<String, ConfigNode> map = mapping(node, label, "count", "share");
    long count = defaults.count();
    double share = defaults.share();
    ConfigNode countNode = map.get("count");
    if (countNode != null) {
      String text = scalar(countNode, label + " count");
      try {
        count = Long.parseLong(String.valueOf(text).trim());
        if (count < 0 || count > MAX_COUNT) {
          problem(
              countNode, label + ": count must be between 0 and " + MAX_COUNT + ", not " + text);
          count = defaults.count();
        }
      } catch (NumberFormatException e) {
        problem(countNode, label + ": count must be a whole number, not '" + text + "'");
      }
    }
    ConfigNode shareNode = map.get("share");
    if (shareNode != null) {
      String text = String.valueOf(scalar(shareNode, label + " share")).trim();
      try {
        boolean percent = text.endsWith("%");
        double value =
            Double.parseDouble(percent ? text.substring(0, text.length() - 1).trim() : text);
        share = percent ? value / 100 : value;
        if (!(share >= 0 && share <= 1)) {
          problem(shareNode, label + ": share must be between 0% and 100%, not " + text);
          share = defaults.share();
        }
      } catch (NumberFormatException e) {
        problem(shareNode, label + ": share must be a percentage such as 10%, not '" + text + "'");
      }
    }
    return new Threshold(count, share);
  }
}
