package io.jimflow.config;

import static io.jimflow.config.ConfigNodes.entry;
import static io.jimflow.config.ConfigNodes.items;
import static io.jimflow.config.ConfigNodes.text;

import io.jimflow.config.tree.ConfigNode;
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
    Optional<ConfigNodes.Beside> beside = ConfigNodes.beside(schedulesFile, FILE_NAME);
    if (beside.isEmpty()) {
      return Optional.empty();
    }
    Map<String, Set<String>> index = new LinkedHashMap<>();
    for (ConfigNode system : items(entry(beside.get().root(), "connectedSystems"))) {
      Set<String> profiles = new LinkedHashSet<>();
      for (ConfigNode profile : items(entry(system, "runProfiles"))) {
        text(entry(profile, "id")).ifPresent(profiles::add);
        text(entry(profile, "name")).ifPresent(profiles::add);
      }
      text(entry(system, "id")).ifPresent(id -> index.put(id, profiles));
      text(entry(system, "name")).ifPresent(name -> index.put(name, profiles));
    }
    return Optional.of(new ConnectedSystemsIndex(beside.get().file(), index));
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
}
