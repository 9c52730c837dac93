package io.jimflow.config.tree;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one reader of {@code connected-systems.yaml}: the worker validates the tree it returns in
 * full, and the schedules tooling takes the names of systems and run profiles from it, so both see
 * the same file the same way.
 */
public final class ConnectedSystemsFile {

  /** The file's name beside the schedules files. */
  public static final String FILE_NAME = "connected-systems.yaml";

  /** The words this file's problems have always had. */
  private static final YamlTreeReader.Wording WORDING =
      new YamlTreeReader.Wording(
          "cannot be read: file not found", "is not valid YAML: ", "is empty");

  private ConnectedSystemsFile() {}

  /** The file's tree; empty after reporting why there is none (missing, unreadable, not YAML). */
  public static Optional<ConfigNode> read(Path file, Problems problems) {
    return YamlTreeReader.read(file, problems, WORDING);
  }

  /** The tree of the file's text; see {@link #read(Path, Problems)}. */
  public static Optional<ConfigNode> parse(String yaml, Problems problems) {
    return YamlTreeReader.read(new StringReader(yaml), problems, WORDING);
  }

  /**
   * Each connected system's id and name, each mapped to the ids and names of its run profiles, read
   * leniently: entries without them are left out (the worker's validation reports those).
   */
  public static Map<String, Set<String>> runProfilesBySystem(ConfigNode root) {
    Map<String, Set<String>> index = new LinkedHashMap<>();
    for (ConfigNode system : elements(root.get("connectedSystems"))) {
      Set<String> profiles = new LinkedHashSet<>();
      for (ConfigNode profile : elements(system.get("runProfiles"))) {
        text(profile.get("id")).ifPresent(profiles::add);
        text(profile.get("name")).ifPresent(profiles::add);
      }
      text(system.get("id")).ifPresent(id -> index.put(id, profiles));
      text(system.get("name")).ifPresent(name -> index.put(name, profiles));
    }
    return index;
  }

  private static Iterable<ConfigNode> elements(Optional<ConfigNode> node) {
    return node.map(ConfigNode::elements).orElse(java.util.List.of());
  }

  private static Optional<String> text(Optional<ConfigNode> node) {
    return node.flatMap(ConfigNode::nonBlankText);
  }
}
