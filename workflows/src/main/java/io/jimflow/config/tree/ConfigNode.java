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

  /**
   * The value of {@code key} when this is a mapping that holds it; empty otherwise. For lenient
   * reads that take what they need from a file another reader validates.
   */
  default java.util.Optional<ConfigNode> get(String key) {
    if (this instanceof MapNode map) {
      return map.entries().stream().filter(e -> e.key().equals(key)).findFirst().map(Entry::value);
    }
    return java.util.Optional.empty();
  }

  /** The items when this is a list; none otherwise (lenient, see {@link #get}). */
  default java.util.List<ConfigNode> elements() {
    return this instanceof ListNode list ? list.items() : java.util.List.of();
  }

  /**
   * The text when this is a scalar that is not blank; empty otherwise (lenient, see {@link #get}).
   */
  default java.util.Optional<String> nonBlankText() {
    return this instanceof ScalarNode scalar && !scalar.text().isBlank()
        ? java.util.Optional.of(scalar.text())
        : java.util.Optional.empty();
  }

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
