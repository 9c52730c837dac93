package io.jimflow.config.tree;

/**
 * One node of a configuration file read as a tree, remembering where it stood in the file so that
 * every problem found later can name its line.
 */
public sealed interface ConfigNode
    permits ConfigNode.MapNode, ConfigNode.ListNode, ConfigNode.ScalarNode {

  /** 1-based line of the node's first character. */
  int line();

  /** Where the node sits in the document, e.g. {@code schedules[0].steps[2].timeout}. */
  String path();

  /**
   * What kind of node this is, as a problem message names it ("a mapping", "a list", "a value").
   */
  String kind();

  /** A mapping; entries keep the file's order. */
  record MapNode(int line, String path, java.util.List<Entry> entries) implements ConfigNode {
    public MapNode {
      entries = java.util.List.copyOf(entries);
    }

    @Override
    public String kind() {
      return "a mapping";
    }
  }

  /** One key of a mapping with the line the key stands on. */
  record Entry(String key, int keyLine, ConfigNode value) {}

  /** A sequence. */
  record ListNode(int line, String path, java.util.List<ConfigNode> items) implements ConfigNode {
    public ListNode {
      items = java.util.List.copyOf(items);
    }

    @Override
    public String kind() {
      return "a list";
    }
  }

  /**
   * A scalar with its text exactly as written and the type YAML gave it.
   *
   * @param text the scalar's text; empty for an explicit or implicit null
   */
  record ScalarNode(int line, String path, String text, ScalarType type) implements ConfigNode {
    @Override
    public String kind() {
      return type == ScalarType.NULL ? "nothing" : "a value";
    }

    public boolean isNull() {
      return type == ScalarType.NULL;
    }
  }

  /** How YAML typed a scalar. */
  enum ScalarType {
    STRING,
    INTEGER,
    DECIMAL,
    BOOLEAN,
    NULL
  }
}
