package io.jimflow.config;

import io.jimflow.config.tree.ConfigNode;
import io.jimflow.config.tree.ConfigNode.ListNode;
import io.jimflow.config.tree.ConfigNode.MapNode;
import io.jimflow.config.tree.ConfigNode.ScalarNode;
import io.jimflow.config.tree.Problems;
import io.jimflow.config.tree.YamlTreeReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Lenient reads of another file's YAML tree: the indexes of files beside a schedules file take what
 * they need and leave the files' own validation to the worker.
 */
final class ConfigNodes {

  /** A file beside a schedules file and its YAML tree. */
  record Beside(Path file, ConfigNode root) {}

  /**
   * The file {@code name} in the folder of {@code schedulesFile} with its tree; empty when there is
   * none or it is not valid YAML (the worker reports that).
   */
  static Optional<Beside> beside(Path schedulesFile, String name) {
    Path dir = schedulesFile.toAbsolutePath().getParent();
    Path file = dir == null ? null : dir.resolve(name);
    if (file == null || !Files.isRegularFile(file)) {
      return Optional.empty();
    }
    Problems problems = new Problems(file.toString());
    Optional<ConfigNode> root = YamlTreeReader.read(file, file.toString(), problems);
    if (root.isEmpty() || !problems.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Beside(file, root.get()));
  }

  static Optional<ConfigNode> entry(ConfigNode node, String key) {
    if (node instanceof MapNode map) {
      return map.entries().stream()
          .filter(e -> e.key().equals(key))
          .findFirst()
          .map(e -> e.value());
    }
    return Optional.empty();
  }

  static Optional<ConfigNode> entry(Optional<ConfigNode> node, String key) {
    return node.flatMap(n -> entry(n, key));
  }

  static Iterable<ConfigNode> items(Optional<ConfigNode> node) {
    return node.filter(ListNode.class::isInstance)
        .map(n -> ((ListNode) n).items())
        .orElse(List.of());
  }

  static Optional<String> text(Optional<ConfigNode> node) {
    return node.filter(ScalarNode.class::isInstance)
        .map(n -> ((ScalarNode) n).text())
        .filter(t -> !t.isBlank());
  }

  private ConfigNodes() {}
}
