package io.jimflow.config.tree;

import io.jimflow.config.tree.ConfigNode.Entry;
import io.jimflow.config.tree.ConfigNode.ListNode;
import io.jimflow.config.tree.ConfigNode.MapNode;
import io.jimflow.config.tree.ConfigNode.ScalarNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The keys of one mapping, read through {@link Conversion}s that report problems instead of
 * throwing. Reading on after a problem is intended: the caller collects every problem of the file.
 */
public final class Fields {

  private final MapNode node;
  private final Problems problems;
  private final Map<String, Entry> entries = new LinkedHashMap<>();

  private Fields(MapNode node, Problems problems) {
    this.node = node;
    this.problems = problems;
    node.entries().forEach(e -> entries.put(e.key(), e));
  }

  /** The mapping's fields, or empty after reporting that {@code node} is not a mapping. */
  public static Optional<Fields> of(ConfigNode node, Problems problems) {
    if (node instanceof MapNode map) {
      return Optional.of(new Fields(map, problems));
    }
    problems.at(node, "expected a mapping (key: value) but found " + node.kind());
    return Optional.empty();
  }

  public MapNode node() {
    return node;
  }

  public Problems problems() {
    return problems;
  }

  /** Reports every key not in {@code known}, suggesting the closest known key. */
  public Fields allowOnly(Collection<String> known) {
    for (Entry entry : node.entries()) {
      if (!known.contains(entry.key())) {
        String hint =
            Suggestions.closest(entry.key(), known)
                .map(k -> "; did you mean '" + k + "'?")
                .orElse("; known keys: " + String.join(", ", known));
        problems.at(
            entry.keyLine(), entry.value().path(), "unknown key '" + entry.key() + "'" + hint);
      }
    }
    return this;
  }

  /** Whether the key is present with a value other than null. */
  public boolean has(String key) {
    return node(key).isPresent();
  }

  /** The key's node, empty if absent or null. */
  public Optional<ConfigNode> node(String key) {
    Entry entry = entries.get(key);
    if (entry == null || (entry.value() instanceof ScalarNode scalar && scalar.isNull())) {
      return Optional.empty();
    }
    return Optional.of(entry.value());
  }

  /** The line a key stands on, or the mapping's own line when the key is absent. */
  public int lineOf(String key) {
    Entry entry = entries.get(key);
    return entry == null ? node.line() : entry.keyLine();
  }

  /** The path a key has (or would have) in the document. */
  public String pathOf(String key) {
    return node.path().isEmpty() ? key : node.path() + "." + key;
  }

  /** The converted value, empty when absent or invalid (the latter reported). */
  public <T> Optional<T> optional(String key, Conversion<T> conversion) {
    return node(key).flatMap(n -> conversion.convert(n, problems));
  }

  /** The converted value; its absence is reported as a problem. */
  public <T> Optional<T> required(String key, Conversion<T> conversion) {
    Optional<ConfigNode> value = node(key);
    if (value.isEmpty()) {
      problems.at(node.line(), node.path(), "missing required key '" + key + "'");
      return Optional.empty();
    }
    return conversion.convert(value.get(), problems);
  }

  /** A nested mapping, empty when absent or not a mapping (the latter reported). */
  public Optional<Fields> fields(String key) {
    return node(key).flatMap(n -> of(n, problems));
  }

  /** The items of a list; empty when absent; a problem when the key holds something else. */
  public List<ConfigNode> items(String key) {
    Optional<ConfigNode> value = node(key);
    if (value.isEmpty()) {
      return List.of();
    }
    if (value.get() instanceof ListNode list) {
      return list.items();
    }
    problems.at(value.get(), "expected a list but found " + value.get().kind());
    return List.of();
  }

  /** Like {@link #items} but a single value also counts as a one-item list. */
  public List<ConfigNode> itemsOrSingle(String key) {
    Optional<ConfigNode> value = node(key);
    if (value.isPresent() && value.get() instanceof ScalarNode scalar) {
      return List.of(scalar);
    }
    return items(key);
  }

  /** Each item converted; invalid items are reported and left out. */
  public <T> List<T> listOf(String key, Conversion<T> conversion) {
    List<T> values = new ArrayList<>();
    for (ConfigNode item : itemsOrSingle(key)) {
      conversion.convert(item, problems).ifPresent(values::add);
    }
    return values;
  }

  /** A mapping of names to text values (e.g. environment variables). */
  public Map<String, String> textMap(String key) {
    Map<String, String> values = new LinkedHashMap<>();
    fields(key)
        .ifPresent(
            map -> {
              for (Entry entry : map.node.entries()) {
                Conversions.text()
                    .convert(entry.value(), problems)
                    .ifPresent(v -> values.put(entry.key(), v));
              }
            });
    return values;
  }
}
