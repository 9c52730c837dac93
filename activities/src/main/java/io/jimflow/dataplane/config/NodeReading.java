package io.jimflow.dataplane.config;

import io.jimflow.config.tree.ConfigNode;
import io.jimflow.config.tree.ConfigNode.ListNode;
import io.jimflow.config.tree.ConfigNode.MapNode;
import io.jimflow.config.tree.ConfigNode.ScalarNode;
import io.jimflow.config.tree.Problems;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reads every part of {@code connected-systems.yaml} shares: each reports what is wrong at the
 * node's line, in words that name the part ("connected system 'hr': …"), and returns what it could
 * read so that one pass finds every problem.
 */
class NodeReading {

  private final Problems problems;

  NodeReading(Problems problems) {
    this.problems = problems;
  }

  /** Where problems go, for a reader of a part of this node. */
  Problems problems() {
    return problems;
  }

  /** Records a problem at the node's line (the file as a whole when there is no node). */
  void problem(ConfigNode at, String message) {
    problems.at(at == null ? 0 : at.line(), "", message);
  }

  /** The keys of a mapping, each of them one of {@code allowedKeys}; the others are problems. */
  Map<String, ConfigNode> mapping(ConfigNode node, String what, String... allowedKeys) {
    Map<String, ConfigNode> map = new LinkedHashMap<>();
    if (!(node instanceof MapNode mapping)) {
      problem(node, what + " must be a mapping (key: value)");
      return map;
    }
    List<String> allowed = Arrays.asList(allowedKeys);
    for (ConfigNode.Entry entry : mapping.entries()) {
      if (allowed.contains(entry.key())) {
        map.put(entry.key(), entry.value());
      } else {
        problems.at(
            entry.keyLine(),
            "",
            what
                + ": unknown key '"
                + entry.key()
                + "' (expected one of "
                + String.join(", ", allowed)
                + ")");
      }
    }
    return map;
  }

  List<ConfigNode> list(
      Map<String, ConfigNode> map, String key, ConfigNode parent, boolean required) {
    ConfigNode node = map.get(key);
    if (node == null) {
      if (required) {
        problem(parent, "'" + key + "' is missing");
      }
      return List.of();
    }
    if (!(node instanceof ListNode sequence)) {
      problem(node, "'" + key + "' must be a list");
      return List.of();
    }
    if (required && sequence.items().isEmpty()) {
      problem(node, "'" + key + "' must not be empty");
    }
    return sequence.items();
  }

  List<String> strings(
      Map<String, ConfigNode> map, String key, ConfigNode parent, boolean required) {
    List<String> values = new ArrayList<>();
    for (ConfigNode node : list(map, key, parent, required)) {
      String value = scalar(node, "'" + key + "' entries");
      if (value != null) {
        values.add(value);
      }
    }
    return values;
  }

  String string(Map<String, ConfigNode> map, String key, ConfigNode parent, boolean required) {
    ConfigNode node = map.get(key);
    if (node == null) {
      if (required) {
        problem(parent, "'" + key + "' is missing");
      }
      return null;
    }
    String value = scalar(node, "'" + key + "'");
    if (value != null && value.isBlank()) {
      if (required) {
        problem(node, "'" + key + "' must not be empty");
      }
      return null;
    }
    return value;
  }

  /** A scalar, or a list of scalars joined with commas. */
  String joined(ConfigNode node, String what) {
    if (node instanceof ListNode sequence) {
      List<String> values = new ArrayList<>();
      for (ConfigNode item : sequence.items()) {
        String value = scalar(item, what + " entries");
        if (value != null) {
          values.add(value);
        }
      }
      return String.join(",", values);
    }
    return scalar(node, what);
  }

  /**
   * A whole number from {@code min} to {@code max} under {@code key}, or {@code absent} when it is
   * not there; one out of range or not a number is a problem.
   */
  int wholeNumber(
      Map<String, ConfigNode> map, String key, String label, int absent, int min, int max) {
    ConfigNode node = map.get(key);
    if (node == null) {
      return absent;
    }
    String text = String.valueOf(scalar(node, label + " " + key)).trim();
    try {
      int value = Integer.parseInt(text);
      if (value < min || value > max) {
        problem(
            node,
            label + ": " + key + " must be between " + min + " and " + max + ", not " + value);
      }
      return value;
    } catch (NumberFormatException e) {
      problem(node, label + ": " + key + " must be a whole number, not '" + text + "'");
      return absent;
    }
  }

  /** A scalar's text as written; an empty value reads as empty text. */
  String scalar(ConfigNode node, String what) {
    if (node instanceof ScalarNode scalar) {
      return scalar.text();
    }
    problem(node, what + " must be a single value");
    return null;
  }

  boolean bool(Map<String, ConfigNode> map, String key, boolean fallback, String label) {
    ConfigNode node = map.get(key);
    if (node == null) {
      return fallback;
    }
    String value = scalar(node, "'" + key + "'");
    if ("true".equals(value)) {
      return true;
    }
    if ("false".equals(value)) {
      return false;
    }
    problem(node, label + ": '" + key + "' must be true or false, not '" + value + "'");
    return fallback;
  }

  <E extends Enum<E>> E enumValue(
      Map<String, ConfigNode> map, String key, ConfigNode parent, Class<E> type, String label) {
    String value = string(map, key, parent, true);
    if (value == null) {
      return null;
    }
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equals(value)) {
        return constant;
      }
    }
    problem(
        map.get(key),
        label
            + ": '"
            + key
            + "' must be one of "
            + Arrays.toString(type.getEnumConstants())
            + ", not '"
            + value
            + "'");
    return null;
  }
}
