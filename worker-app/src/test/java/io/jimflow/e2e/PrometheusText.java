package io.jimflow.e2e;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Samples of a Prometheus text exposition (what {@code /actuator/prometheus} answers). */
record PrometheusText(List<Sample> samples) {

  private static final Pattern LINE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)(?:\\s+\\d+)?$");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

  /** One sample: its metric name, labels and value. */
  record Sample(String name, Map<String, String> labels, double value) {}

  static PrometheusText parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = LINE.matcher(line.strip());
      if (!m.matches()) {
        throw new IllegalArgumentException("not a sample line: " + line);
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(2) != null) {
        Matcher label = LABEL.matcher(m.group(2));
        while (label.find()) {
          labels.put(label.group(1), label.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
        }
      }
      samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
    }
    return new PrometheusText(samples);
  }

  /**
   * The value of the one sample of {@code name} whose labels include {@code labels} (pairs of name
   * and value); fails if there is none or more than one.
   */
  double value(String name, String... labels) {
    List<Sample> found = find(name, labels);
    if (found.size() != 1) {
      throw new AssertionError(
          found.size()
              + " samples of "
              + name
              + " with "
              + List.of(labels)
              + "; the samples of that name: "
              + find(name));
    }
    return found.get(0).value();
  }

  /** The samples of {@code name} whose labels include {@code labels}. */
  List<Sample> find(String name, String... labels) {
    List<Sample> found = new ArrayList<>();
    for (Sample sample : samples) {
      boolean matches = sample.name().equals(name);
      for (int i = 0; matches && i + 1 < labels.length; i += 2) {
        matches = labels[i + 1].equals(sample.labels().get(labels[i]));
      }
      if (matches) {
        found.add(sample);
      }
    }
    return found;
  }
}
