package io.jimflow.config;

import io.jimflow.config.tree.ConfigNode;
import io.jimflow.config.tree.ConfigNode.ListNode;
import io.jimflow.config.tree.ConfigNode.MapNode;
import io.jimflow.config.tree.ConfigNode.ScalarNode;
import io.jimflow.config.tree.Problems;
import io.jimflow.config.tree.YamlTreeReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The connected systems and run profiles named in {@code connected-systems.yaml}, by id and by
 * name, so that a schedules file's RunProfile steps can be checked against them before anything is
 * deployed. The worker validates that file in full; this reads only the names.
 */
public final class ConnectedSystemsIndex {

  public static final String FILE_NAME = "connected-systems.yaml";

  private final Path file;
  private final Map<String, Set<String>> profilesBySystem;

  private ConnectedSystemsIndex(Path file, Map<String, Set<String>> profilesBySystem) {
    this.file = file;
    this.profilesBySystem = profilesBySystem;
  }

  /**
   * The index of the {@code connected-systems.yaml} beside a schedules file; empty when there is
   * none (or it cannot be read as YAML), in which case references are not checked.
   */
  public static Optional<ConnectedSystemsIndex> besides(Path schedulesFile) {
    Path dir = schedulesFile.toAbsolutePath().getParent();
    Path file = dir == null ? null : dir.resolve(FILE_NAME);
    if (file == null || !Files.isRegularFile(file)) {
      return Optional.empty();
    }
    Problems problems = new Problems(file.toString());
    Optional<ConfigNode> root = YamlTreeReader.read(file, file.toString(), problems);
    if (root.isEmpty() || !problems.isEmpty()) {
      return Optional.empty();
    }
    Map<String, Set<String>> index = new LinkedHashMap<>();
    for (ConfigNode system : items(entry(root.get(), "connectedSystems"))) {
      Set<String> profiles = new LinkedHashSet<>();
      for (ConfigNode profile : items(entry(system, "runProfiles"))) {
        text(entry(profile, "id")).ifPresent(profiles::add);
        text(entry(profile, "name")).ifPresent(profiles::add);
      }
      text(entry(system, "id")).ifPresent(id -> index.put(id, profiles));
      text(entry(system, "name")).ifPresent(name -> index.put(name, profiles));
    }
    return Optional.of(new ConnectedSystemsIndex(file, index));
  }

  /** What is wrong with a reference to a run profile of a connected system, if anything. */
  public Optional<String> problem(String connectedSystem, String runProfile) {
    Set<String> profiles = profilesBySystem.get(connectedSystem);
    if (profiles == null) {
      return Optional.of(
          "connected system '"
              + connectedSystem
              + "' is not in "
              + file.getFileName()
              + " (known: "
              + String.join(", ", profilesBySystem.keySet())
              + ")");
    }
    if (!profiles.contains(runProfile)) {
      return Optional.of(
          "connected system '"
              + connectedSystem
              + "' has no run profile '"
              + runProfile
              + "' in "
              + file.getFileName()
              + " (known: "
              + String.join(", ", profiles)
              + ")");
    }
    return Optional.empty();
  }

  private static Optional<ConfigNode> entry(ConfigNode node, String key) {
    if (node instanceof MapNode map) {
      return map.entries().stream()
          .filter(e -> e.key().equals(key))
          .findFirst()
          .map(e -> e.value());
    }
    return Optional.empty();
  }

  private static Optional<ConfigNode> entry(Optional<ConfigNode> node, String key) {
    return node.flatMap(n -> entry(n, key));
  }

  private static Iterable<ConfigNode> items(Optional<ConfigNode> node) {
    return node.filter(ListNode.class::isInstance)
        .map(n -> ((ListNode) n).items())
        .orElse(java.util.List.of());
  }

  private static Optional<String> text(Optional<ConfigNode> node) {
    return node.filter(ScalarNode.class::isInstance)
        .map(n -> ((ScalarNode) n).text())
        .filter(t -> !t.isBlank());
  }
}
